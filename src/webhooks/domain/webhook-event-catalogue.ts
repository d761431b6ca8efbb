import { TEST_EVENT_TYPE, WebhookEventType } from './webhook-event-types';
import type { WebhookPayloads } from './webhook-payloads';
import type { DeliveryBody } from './webhooks.events';

export interface WebhookEventTypeEntry {
  type: WebhookEventType | typeof TEST_EVENT_TYPE;
  /** Whether an endpoint may list it in eventTypes (webhook.test is only sent by the test call). */
  subscribable: boolean;
  description: string;
  /** A whole delivery body as a receiver gets it (docs/webhooks.md#9-event-catalogue). */
  example: DeliveryBody;
}

const SPLIT = 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1';
const LEG_A = 'po_00mwq1z8k5h2b9d4f1h6k8m0p3';
const ROW = 'dst_00mwq1z8k4g1i3k5m7o9q1s3u5';
const SESSION = { sessionId: 'pes_00mwqc2d4f6h8j0l2n4p6r8t0v', amountCents: '15000', currency: 'USD' };

/** An example body: `data` has the public payload type of its event type (webhook-payloads.ts). */
const body = <T extends WebhookEventTypeEntry['type']>(type: T, id: string, createdAt: string, data: WebhookPayloads[T]): DeliveryBody => ({ id, type, createdAt, data });

/**
 * The catalogue the dashboard shows, one entry per type (the Record makes the compiler insist on every
 * type): what it means and an example body whose data has its public payload type (webhook-payloads.ts).
 */
const ENTRIES: Record<WebhookEventTypeEntry['type'], Omit<WebhookEventTypeEntry, 'type' | 'subscribable'>> = {
  'split.leg_a.approved': {
    description: 'The enterprise approved the Split, manually or by auto-accept.',
    example: body('split.leg_a.approved', 'evt_3k9x0q2m7a1c5v8b4n6z0p2r4t', '2026-03-02T09:15:27.402Z', { splitId: SPLIT, legAPayoutId: LEG_A }),
  },
  'split.leg_a.rejected': {
    description: 'The enterprise rejected the Split.',
    example: body('split.leg_a.rejected', 'evt_7d2f9h4k1m6p3r8t5v0x2z7b4c', '2026-03-02T10:02:11.918Z', { splitId: SPLIT, legAPayoutId: LEG_A }),
  },
  'split.leg_a.claimed': {
    description: "The SME's balance was credited with the roster sum (the Split was funded).",
    example: body('split.leg_a.claimed', 'evt_1q8w3e6r9t2y5u8i1o4p7a0s3d', '2026-03-02T09:15:27.455Z', { splitId: SPLIT, legAPayoutId: LEG_A }),
  },
  'split.roster_entry.settled': {
    description: 'One roster row was transferred to its contractor (instant election, on-demand payout, or at net terms).',
    example: body('split.roster_entry.settled', 'evt_5g8j1l4n7q0s3v6x9z2b5d8f1h', '2026-03-02T09:15:27.503Z', { splitId: SPLIT, rosterEntryId: ROW }),
  },
  'split.roster_entry.failed': {
    description:
      "One roster row's transfer failed. final: false, Paysplit retries it; final: true, it kept failing past the 30-day retry horizon and waits for the SME to re-point it or take it back.",
    example: body('split.roster_entry.failed', 'evt_9k2m5o8q1s4u7w0y3a6c9e2g5i', '2026-03-02T09:15:27.511Z', { splitId: SPLIT, rosterEntryId: ROW, final: false }),
  },
  'split.roster_entry.reversed': {
    description: 'The SME took back all or part of a transferred row from its contractor (amountCents in minor units).',
    example: body('split.roster_entry.reversed', 'evt_6t8v0x2z4b6d8f0h2j4l6n8p0r', '2026-03-09T11:42:05.310Z', {
      splitId: SPLIT,
      rosterEntryId: ROW,
      reversalId: 'rev_00mwqd7h1k3m5o7q9s1u3w5y7a',
      amountCents: '2500',
    }),
  },
  'split.margin.settled': {
    description: 'The declared margin was released (instant election or the scheduled net-terms release).',
    example: body('split.margin.settled', 'evt_2b4d6f8h0j2l4n6p8r0t2v4x6z', '2026-04-01T09:15:27.402Z', { splitId: SPLIT }),
  },
  'split.invoice.paid': {
    description: "The Split's invoice is paid in full (by balance, card or bank transfer, in one or more payments). Sent to both the SME and the enterprise.",
    example: body('split.invoice.paid', 'evt_6c8e0g2i4k6m8o0q2s4u6w8y0a', '2026-03-25T11:02:40.118Z', {
      invoiceId: 'inv_00mwq1z8k3f0a7c2e9g4j6l8n1',
      splitId: SPLIT,
      amountCents: '45450',
      currency: 'USD',
    }),
  },
  'split.invoice.overdue': {
    description: "The Split's invoice was not paid in full by its due date (funding + the enterprise's net terms). Sent to both the SME and the enterprise.",
    example: body('split.invoice.overdue', 'evt_8e0g2i4k6m8o0q2s4u6w8y0a2c', '2026-04-01T09:15:27.402Z', {
      invoiceId: 'inv_00mwq1z8k3f0a7c2e9g4j6l8n1',
      splitId: SPLIT,
      outstandingCents: '45450',
      currency: 'USD',
      dueAt: '2026-04-01T09:15:27.402Z',
    }),
  },
  'checkout.completed': {
    description: "A Checkout order was paid: a one-off order, a subscription's founding order, or a renewal (renewals add subscriptionId).",
    example: body('checkout.completed', 'evt_4f6h8j0l2n4p6r8t0v2x4z6b8d', '2026-03-05T14:20:03.117Z', {
      payoutId: 'po_00mwqa4e2b6d8f0h2j4l6n8p0r',
      amount: '2500',
      currency: 'EUR',
      provider: 'CARD_PROCESSOR',
    }),
  },
  'checkout.refunded': {
    description: 'A refund of a Checkout order was answered by the processor: status succeeded (the money went back to the buyer) or failed (nothing moved).',
    example: body('checkout.refunded', 'evt_8k0m2o4q6s8u0w2y4a6c8e0g2i', '2026-03-06T10:12:44.501Z', {
      orderId: 'ord_00mwqa4e2a5c7e9g1i3k5m7o9q',
      refundId: 'rf_3k5m7o9q1s3u5w7y9a1c3e5g7i',
      amount: '1000',
      currency: 'EUR',
      status: 'succeeded',
    }),
  },
  'payout_embed.session.created': {
    description: 'A Payout Embed session was created and its amount reserved.',
    example: body('payout_embed.session.created', 'evt_8j0l2n4p6r8t0v2x4z6b8d0f2h', '2026-03-03T08:00:00.000Z', { ...SESSION, status: 'created' }),
  },
  'payout_embed.session.claimed': {
    description: 'The recipient proved their email with the emailed code.',
    example: body('payout_embed.session.claimed', 'evt_0l2n4p6r8t0v2x4z6b8d0f2h4j', '2026-03-03T08:05:00.000Z', { ...SESSION, status: 'claimed' }),
  },
  'payout_embed.session.completed': {
    description: "The payout to the recipient's wallet completed.",
    example: body('payout_embed.session.completed', 'evt_2n4p6r8t0v2x4z6b8d0f2h4j6l', '2026-03-03T08:06:00.000Z', {
      ...SESSION,
      status: 'completed',
      payoutId: 'po_00mwqc9e1g3i5k7m9o1q3s5u7w',
    }),
  },
  'payout_embed.session.failed': {
    description: 'The payout failed; the reservation went back to the balance.',
    example: body('payout_embed.session.failed', 'evt_4p6r8t0v2x4z6b8d0f2h4j6l8n', '2026-03-03T08:06:00.000Z', {
      ...SESSION,
      status: 'failed',
      payoutId: 'po_00mwqc9e1g3i5k7m9o1q3s5u7w',
      failureReason: 'refused',
    }),
  },
  'payout_embed.session.expired': {
    description: 'Not paid out by expiresAt; the reservation went back to the balance.',
    example: body('payout_embed.session.expired', 'evt_6r8t0v2x4z6b8d0f2h4j6l8n0p', '2026-03-10T08:00:00.000Z', { ...SESSION, status: 'expired' }),
  },
  'payout_embed.session.cancelled': {
    description: 'The session was cancelled through the API; the reservation went back to the balance.',
    example: body('payout_embed.session.cancelled', 'evt_8t0v2x4z6b8d0f2h4j6l8n0p2r', '2026-03-03T09:00:00.000Z', { ...SESSION, status: 'cancelled' }),
  },
  'webhook.test': {
    description: 'Only sent by POST /api/commerce/webhooks/endpoints/:id/test; it cannot be subscribed to.',
    example: body('webhook.test', 'evt_0v2x4z6b8d0f2h4j6l8n0p2r4t', '2026-03-01T12:00:00.000Z', {
      endpointId: 'we_00mwq0a1b2c3d4e5f6g7h8i9j0',
      message: 'This is a test event from Paysplit.',
    }),
  },
};

export const WEBHOOK_EVENT_CATALOGUE: readonly WebhookEventTypeEntry[] = Object.entries(ENTRIES).map(([type, entry]) => ({
  type: type as WebhookEventTypeEntry['type'],
  subscribable: type !== TEST_EVENT_TYPE,
  ...entry,
}));
