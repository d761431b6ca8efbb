import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { checkoutPublicEvent } from '../../checkout';
import { collectionPublicEvent } from '../../collection';
import { payoutEmbedPublicEvent } from '../../payout-embed';
import { splitPublicEvent } from '../../split';
import type { PublicWebhookEvent } from '../domain/webhook-payloads';
import { deterministicId } from '../../platform/ids/ids';
import type { DeliveryBody } from '../domain/webhooks.events';

/**
 * The public webhook event a recorded event becomes, as the module that recorded it maps it
 * (domain/webhook-payloads.ts); null when it is not a webhook event. Split events name their Split (the
 * SME that created it receives them); invoice events name both companies of the Split (issue 27); the
 * others name the company that receives them.
 */
export function publicWebhookEvent(event: RecordedEvent): PublicWebhookEvent | null {
  return splitPublicEvent(event) ?? checkoutPublicEvent(event) ?? payoutEmbedPublicEvent(event) ?? collectionPublicEvent(event);
}

/**
 * The body every delivery of a recorded event carries, and what the events API lists (issue 28): its id
 * derives from the recorded event's id, so the dispatcher, the events API and recovery name it alike.
 */
export function deliveryBodyOf(event: RecordedEvent, published: PublicWebhookEvent): DeliveryBody {
  return { id: deterministicId('evt', event.id), type: published.type, createdAt: event.metadata.occurredAt, data: published.data };
}

/** The id of the delivery of a recorded event to an endpoint: one per (event, endpoint), whoever makes it (the dispatcher, recovery). */
export function deliveryIdFor(recordedEventId: string, endpointId: string): string {
  return deterministicId('dlv', recordedEventId, endpointId);
}
