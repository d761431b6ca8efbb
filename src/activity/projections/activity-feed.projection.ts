import { Injectable } from '@nestjs/common';
import { type OrderPaid, ORDER_STREAM_PREFIX } from '../../checkout';
import { API_KEY_STREAM_PREFIX, type ApiKeyEvent } from '../../identity';
import { LIFECYCLE_STATUS, SESSION_STREAM_PREFIX, type SessionRef } from '../../payout-embed';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { SPLIT_STREAM_PREFIX, type SplitEvent } from '../../split';
import { formatAmount } from '../../platform/money/format-amount';
import { ActivityEntry } from '../domain/activity';

export const ACTIVITY = 'activity';
/** Who a Split concerns (its later events carry only its id). */
export const ACTIVITY_SPLITS = 'activity_splits';

export interface ActivityDoc extends ActivityEntry {
  id: string;
  companyId: string;
  /** Global log position: newest first is by it. */
  position: number;
}

interface ActivitySplitDoc {
  id: string;
  companyIds: string[];
  label: string;
}

const SPLIT_SUMMARIES: Record<string, string> = {
  'split.roster.revised': 'roster revised',
  'split.leg_a.approved': 'approved by the enterprise',
  'split.leg_a.rejected': 'rejected by the enterprise',
  'split.cancelled': 'cancelled',
  'split.funded': 'funded',
  'split.roster_entry.settled': 'a row was paid to its contractor',
  'split.roster_entry.failed': "a row's transfer failed (it is retried)",
  'split.margin.settled': 'margin released',
  'split.settled': 'settled',
};

/**
 * A line's id: its event's log position, zero-padded so that ids sort as positions do, then the company
 * (an event can make a line for two). Ids in log order are appended to the id index: a rebuild writes
 * ~430,000 lines, and with ids that began with the event's random id each batch's commit rewrote pages
 * all over that index (npm run bench -- rebuild). Nothing outside the projection reads the id; the feed
 * is sorted by position, then id, as before (within one event, by company).
 */
export const activityIdOf = (position: number, companyId: string) => `${String(position).padStart(16, '0')}:${companyId}`;

const HANDLED = new Set<string>(['split.created', ...Object.keys(SPLIT_SUMMARIES), 'checkout.order.paid', ...Object.keys(LIFECYCLE_STATUS), 'api_key.issued', 'api_key.revoked']);

/**
 * The recent activity of each company: one line per event that matters to a person (a Split's steps for
 * its SME and its enterprise, paid orders, Payout Embed sessions, API keys), newest first by log position.
 */
@Injectable()
@LogSubscriber()
export class ActivityFeedProjection implements Projection {
  readonly name = 'activity';
  /** 2: a line's id starts with its log position (activityIdOf), not with its event's random id. */
  readonly version = 2;
  readonly streams = [SPLIT_STREAM_PREFIX, ORDER_STREAM_PREFIX, SESSION_STREAM_PREFIX, API_KEY_STREAM_PREFIX];
  readonly collections = [{ name: ACTIVITY, indexes: [['companyId', 'position']] }, { name: ACTIVITY_SPLITS }];

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const add = (companyId: string, summary: string, resource: ActivityEntry['resource']) =>
      writer.put<ActivityDoc>(ACTIVITY, {
        id: activityIdOf(recorded.position, companyId),
        companyId,
        position: recorded.position,
        type: recorded.type,
        occurredAt: recorded.metadata.occurredAt,
        summary,
        resource,
      });

    if (recorded.type.startsWith('split.')) {
      const event = { type: recorded.type, data: recorded.data } as SplitEvent;
      if (event.type === 'split.created') {
        const d = event.data;
        const label = `Split of ${formatAmount(d.totalAmountCents, d.currency)} from ${d.smeCompanyName} to ${d.enterpriseCompanyName}`;
        writer.put<ActivitySplitDoc>(ACTIVITY_SPLITS, { id: d.splitId, companyIds: [d.smeCompanyId, d.enterpriseCompanyId], label });
        for (const companyId of [d.smeCompanyId, d.enterpriseCompanyId]) add(companyId, `${label} created`, { kind: 'split', id: d.splitId });
        return;
      }
      const split = await writer.get<ActivitySplitDoc>(ACTIVITY_SPLITS, event.data.splitId);
      if (!split) return;
      for (const companyId of split.companyIds) add(companyId, `${split.label}: ${SPLIT_SUMMARIES[event.type]}`, { kind: 'split', id: event.data.splitId });
      return;
    }
    if (recorded.type === 'checkout.order.paid') {
      const d = recorded.data as OrderPaid['data'];
      add(d.merchantCompanyId, `Order paid: ${formatAmount(d.amountMinorUnits, d.currency)}${d.renewal ? ' (subscription renewal)' : ''}`, { kind: 'order', id: d.orderId });
      return;
    }
    if (recorded.type.startsWith('payout_embed.session.')) {
      const d = recorded.data as SessionRef;
      add(d.companyId, `Payout Embed session of ${formatAmount(d.amountCents, d.currency)} ${LIFECYCLE_STATUS[recorded.type]}`, { kind: 'payout_embed_session', id: d.sessionId });
      return;
    }
    const event = { type: recorded.type, data: recorded.data } as ApiKeyEvent;
    if (event.type === 'api_key.issued')
      add(event.data.companyId, `API key "${event.data.name}" created (${event.data.scopes.join(', ')})`, { kind: 'api_key', id: event.data.keyId });
    else add(event.data.companyId, 'API key revoked', { kind: 'api_key', id: event.data.keyId });
  }
}
