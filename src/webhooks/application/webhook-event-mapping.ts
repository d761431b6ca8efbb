import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { checkoutPublicEvent } from '../../checkout';
import { collectionPublicEvent } from '../../collection';
import { payoutEmbedPublicEvent } from '../../payout-embed';
import { splitPublicEvent } from '../../split';
import type { PublicWebhookEvent } from '../domain/webhook-payloads';

/**
 * The public webhook event a recorded event becomes, as the module that recorded it maps it
 * (domain/webhook-payloads.ts); null when it is not a webhook event. Split events name their Split (the
 * SME that created it receives them); invoice events name both companies of the Split (issue 27); the
 * others name the company that receives them.
 */
export function publicWebhookEvent(event: RecordedEvent): PublicWebhookEvent | null {
  return splitPublicEvent(event) ?? checkoutPublicEvent(event) ?? payoutEmbedPublicEvent(event) ?? collectionPublicEvent(event);
}
