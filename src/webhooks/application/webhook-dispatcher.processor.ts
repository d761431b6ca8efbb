import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId } from '../../platform/ids/ids';
import { AppLogger } from '../../platform/logging/app-logger';
import { EventProcessor } from '../../platform/projections/projection';
import { splitDecider } from '../../split/domain/split.decider';
import { SPLIT_STREAM_PREFIX, splitStreamId } from '../../split/domain/split.events';
import { companyWebhooksDecider } from '../domain/company-webhooks.decider';
import { companyWebhooksStreamId, DeliveryBody } from '../domain/webhooks.events';
import { MappingLookups, WEBHOOK_MAPPINGS } from './webhook-event-mapping';
import { WebhookDeliveries } from './webhook-deliveries';
import { ORDER_STREAM_PREFIX } from '../../checkout/domain/checkout.events';

/**
 * Follows the log and turns each mapped domain event into one delivery per endpoint that is enabled
 * and subscribed when the event is processed. Delivery ids derive from (event, endpoint), so
 * reprocessing after a crash never duplicates a delivery.
 */
export class WebhookDispatcher implements EventProcessor {
  readonly name = 'webhook_dispatcher';
  readonly streams = [SPLIT_STREAM_PREFIX, ORDER_STREAM_PREFIX];
  private readonly lookups: MappingLookups;

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly deliveries: WebhookDeliveries,
    private readonly logger: AppLogger,
  ) {
    this.lookups = {
      splitOwner: async (splitId) => {
        const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
        return state.status === 'none' ? null : state.smeCompanyId;
      },
    };
  }

  handles(event: RecordedEvent): boolean {
    return event.type in WEBHOOK_MAPPINGS;
  }

  async process(event: RecordedEvent): Promise<void> {
    const mapping = WEBHOOK_MAPPINGS[event.type]!;
    const companyId = await mapping.recipient(event, this.lookups);
    if (!companyId) {
      this.logger.warn({ eventId: event.id, type: event.type }, 'webhook event has no recipient company; not delivered');
      return;
    }
    const { state } = await this.aggregates.load(companyWebhooksStreamId(companyId), companyWebhooksDecider);
    const body: DeliveryBody = { id: deterministicId('evt', event.id), type: mapping.publicType, createdAt: event.metadata.occurredAt, data: mapping.payload(event) };
    const context = { actor: 'system:webhook-dispatcher', correlationId: event.metadata.correlationId, causationId: event.id };
    for (const endpoint of Object.values(state.endpoints)) {
      if (!endpoint.enabled || !endpoint.eventTypes.includes(mapping.publicType)) continue;
      await this.deliveries.create(deterministicId('dlv', event.id, endpoint.endpointId), endpoint.endpointId, companyId, body, context);
    }
  }
}
