import type { CheckoutPublicEvent } from '../../checkout';
import type { CollectionPublicEvent } from '../../collection';
import type { PayoutEmbedPublicEvent } from '../../payout-embed';
import type { SplitPublicEvent } from '../../split';
import type { TEST_EVENT_TYPE } from './webhook-event-types';

/**
 * The public webhook payloads, declared once (docs/webhooks.md#9-event-catalogue points here). Each module
 * owns the events it publishes and maps its own recorded events to them (`splitPublicEvent`,
 * `checkoutPublicEvent`, `payoutEmbedPublicEvent`, exported from its index.ts); webhooks only routes them.
 */
export type PublicWebhookEvent = SplitPublicEvent | CheckoutPublicEvent | PayoutEmbedPublicEvent | CollectionPublicEvent;

/** `webhook.test`, sent only by POST /endpoints/:id/test. */
export type TestWebhookPayload = { endpointId: string; message: string };

/** The `data` of a delivery body, by public event type (webhook-event-catalogue.ts types its examples with it). */
export type WebhookPayloads = { [E in PublicWebhookEvent as E['type']]: E['data'] } & { [TEST_EVENT_TYPE]: TestWebhookPayload };
