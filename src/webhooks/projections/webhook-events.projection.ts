import { Injectable } from '@nestjs/common';
import { ORDER_STREAM_PREFIX } from '../../checkout';
import { INVOICE_STREAM_PREFIX } from '../../collection';
import { SESSION_STREAM_PREFIX } from '../../payout-embed';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { SPLIT_STREAM_PREFIX, type SplitEvent } from '../../split';
import { deliveryBodyOf, publicWebhookEvent } from '../application/webhook-event-mapping';
import { DeliveryBody } from '../domain/webhooks.events';

/** Per company, every public webhook event it receives, whether or not an endpoint took it (issue 28, the events API). */
export const WEBHOOK_EVENTS = 'webhook_events';
/** Who receives a Split's events (its later events carry only its id): the SME that created it, as the dispatcher's splitOwner. */
export const WEBHOOK_EVENT_SPLITS = 'webhook_event_splits';

export interface WebhookEventDoc {
  /** `<companyId>:<evt_ id>`: an invoice event is listed for both companies of its Split, under one evt_ id. */
  id: string;
  companyId: string;
  /** The public id (`evt_...`), the one every delivery of it carries. */
  eventId: string;
  type: string;
  createdAt: string;
  /** Global log position: the list's order and its cursor (it only grows). */
  position: number;
  /** The recorded event's id: a delivery's id derives from it and the endpoint's (what recovery looks up). */
  sourceEventId: string;
  /** The delivery body as every delivery of it carries it. */
  body: DeliveryBody;
}

interface WebhookEventSplitDoc {
  id: string;
  companyId: string;
}

/**
 * The events API's read model: one document per (company, public webhook event), written when the log
 * has the event, for every company the dispatcher would send it to, whatever its endpoints were then.
 * The recipients are the dispatcher's (publicWebhookEvent); the body is the one its deliveries carry.
 */
@Injectable()
@LogSubscriber()
export class WebhookEventsProjection implements Projection {
  readonly name = 'webhook_events';
  readonly streams = [SPLIT_STREAM_PREFIX, ORDER_STREAM_PREFIX, SESSION_STREAM_PREFIX, INVOICE_STREAM_PREFIX];
  readonly collections = [
    {
      name: WEBHOOK_EVENTS,
      indexes: [
        ['companyId', 'position'],
        ['companyId', 'type', 'position'],
      ],
    },
    { name: WEBHOOK_EVENT_SPLITS },
  ];

  handles(event: RecordedEvent): boolean {
    return event.type === 'split.created' || publicWebhookEvent(event) !== null;
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    if (recorded.type === 'split.created') {
      const { splitId, smeCompanyId } = (recorded as unknown as Extract<SplitEvent, { type: 'split.created' }>).data;
      writer.put<WebhookEventSplitDoc>(WEBHOOK_EVENT_SPLITS, { id: splitId, companyId: smeCompanyId });
      return;
    }
    const published = publicWebhookEvent(recorded)!;
    const companyIds =
      'companyIds' in published
        ? [...new Set(published.companyIds)]
        : ['companyId' in published ? published.companyId : (await writer.get<WebhookEventSplitDoc>(WEBHOOK_EVENT_SPLITS, published.splitId))?.companyId];
    const body = deliveryBodyOf(recorded, published);
    for (const companyId of companyIds) {
      if (!companyId) continue;
      writer.put<WebhookEventDoc>(WEBHOOK_EVENTS, {
        id: `${companyId}:${body.id}`,
        companyId,
        eventId: body.id,
        type: body.type,
        createdAt: body.createdAt,
        position: recorded.position,
        sourceEventId: recorded.id,
        body,
      });
    }
  }
}
