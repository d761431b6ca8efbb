import { DomainEvent } from '../../platform/domain/decider';

export const SESSION_STREAM_PREFIX = 'pes-';
export const sessionStreamId = (sessionId: string) => `${SESSION_STREAM_PREFIX}${sessionId}`;

/** The statuses a session can be in (docs/payout-embed.md#lifecycle). */
export const SESSION_STATUSES = ['created', 'claimed', 'completed', 'failed', 'expired', 'cancelled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** What every lifecycle event carries, so webhooks and the ledger need no lookup. */
export interface SessionRef {
  sessionId: string;
  companyId: string;
  amountCents: string;
  currency: string;
}

export interface SessionCreatedData extends SessionRef {
  recipientEmail: string;
  recipientName: string | null;
  description: string | null;
  idempotencyKey: string | null;
  /** SHA-256 of the normalized request: a retry with another body under the same key is refused. */
  requestHash: string;
  /** SHA-256 of the embed token; the token itself is never stored. */
  tokenHash: string;
  allowedOrigins: string[];
  returnUrl: string | null;
  /** The payout's id is fixed at creation, so every later step can name it. */
  payoutId: string;
  createdAt: string;
  expiresAt: string;
  /**
   * Issue 30, the SME-side two-person rule: the session is above the company's own two-approval threshold, so
   * a second finance or owner member must confirm it (`payout_embed.session.confirmed`) before the recipient
   * can claim it; `startedBy` (the actor that created it) cannot. Absent on sessions that need no second person
   * and on every session written before the rule.
   */
  confirmation?: { startedBy: string; aboveAmountCents: string };
}

export type SessionCreated = DomainEvent<'payout_embed.session.created', SessionCreatedData>;
/** A claim code went to the recipient; only its hash is recorded. */
export type ClaimCodeSent = DomainEvent<'payout_embed.session.code_sent', { sessionId: string; codeHash: string; sentAt: string; codeExpiresAt: string }>;
/** A wrong code; the fifth in a row locks claims until `lockedUntil` and burns the code. */
export type ClaimCodeRejected = DomainEvent<'payout_embed.session.code_rejected', { sessionId: string; failedAttempts: number; lockedUntil: string | null; rejectedAt: string }>;
export type SessionClaimed = DomainEvent<'payout_embed.session.claimed', SessionRef & { claimedAt: string }>;
export type SessionPayoutStarted = DomainEvent<'payout_embed.session.payout_started', SessionRef & { payoutId: string; walletEmail: string; startedAt: string }>;
export type SessionCompleted = DomainEvent<'payout_embed.session.completed', SessionRef & { payoutId: string; walletEmail: string; completedAt: string }>;
export type SessionFailed = DomainEvent<'payout_embed.session.failed', SessionRef & { payoutId: string; walletEmail: string; failureReason: string; failedAt: string }>;
export type SessionExpired = DomainEvent<'payout_embed.session.expired', SessionRef & { expiredAt: string }>;
export type SessionCancelled = DomainEvent<'payout_embed.session.cancelled', SessionRef & { cancelledAt: string }>;
/**
 * The abandoned-reservation timer found no session and closed this session id for good (issue 23):
 * the stream's first event, so a create racing it (the same idempotency key retried) is serialized on
 * the stream and can no longer start a session on a reservation about to be released. Not a webhook
 * event; the session read model ignores it (there is no session).
 */
export type SessionAbandoned = DomainEvent<'payout_embed.session.abandoned', { sessionId: string; companyId: string; abandonedAt: string }>;

/** Issue 30: a second member (`confirmedBy`, never the one that started it) confirmed a session that needed it. Not a webhook event. */
export type SessionConfirmed = DomainEvent<'payout_embed.session.confirmed', { sessionId: string; companyId: string; confirmedBy: string; confirmedAt: string }>;

export type SessionEvent =
  | SessionCreated
  | SessionConfirmed
  | ClaimCodeSent
  | ClaimCodeRejected
  | SessionClaimed
  | SessionPayoutStarted
  | SessionCompleted
  | SessionFailed
  | SessionExpired
  | SessionCancelled
  | SessionAbandoned;

/** Session events that are public webhook events, and the status each leaves the session in. */
export const LIFECYCLE_STATUS: Readonly<Record<string, SessionStatus>> = {
  'payout_embed.session.created': 'created',
  'payout_embed.session.claimed': 'claimed',
  'payout_embed.session.completed': 'completed',
  'payout_embed.session.failed': 'failed',
  'payout_embed.session.expired': 'expired',
  'payout_embed.session.cancelled': 'cancelled',
};

// ---- Company balance ---------------------------------------------------------------------------

export const BALANCE_STREAM_PREFIX = 'balance-';
export const balanceStreamId = (companyId: string) => `${BALANCE_STREAM_PREFIX}${companyId}`;

/** Why a reservation went back: the session failed, expired or was cancelled, or its session was never written (a create that died half-way). */
export type ReleaseReason = 'failed' | 'expired' | 'cancelled' | 'abandoned';

export type BalanceToppedUp = DomainEvent<'company_balance.topped_up', { companyId: string; topUpId: string; currency: string; amountCents: string; toppedUpAt: string }>;
export type BalanceReserved = DomainEvent<
  'company_balance.reserved',
  { companyId: string; sessionId: string; currency: string; amountCents: string; requestHash: string; reservedAt: string }
>;
export type ReservationReleased = DomainEvent<
  'company_balance.reservation_released',
  { companyId: string; sessionId: string; currency: string; amountCents: string; reason: ReleaseReason; releasedAt: string }
>;
export type ReservationPaid = DomainEvent<
  'company_balance.reservation_paid',
  { companyId: string; sessionId: string; currency: string; amountCents: string; payoutId: string; walletEmail: string; paidAt: string }
>;

/**
 * A Split's released margin reached the SME's balance (the part left after recovering the fees the SME
 * covered). The ledger already posted it from `split.margin.settled`; this is the balance stream's own
 * record, so reservations can draw on it.
 */
export type SplitMarginCredited = DomainEvent<
  'company_balance.split_margin_credited',
  { companyId: string; splitId: string; currency: string; amountCents: string; creditedAt: string }
>;

/**
 * Money of the SME set aside from its available balance for the early-payout fees it covers on a Split
 * (issue 23): `amountCents` more, `setAsideCents` for the Split in all. Each covered row's transfer pays
 * its fee out of it (the ledger posts that from the Split's `split.roster_entry.settled`).
 */
export type SplitFeesReserved = DomainEvent<
  'company_balance.split_fees_reserved',
  { companyId: string; splitId: string; currency: string; amountCents: string; setAsideCents: string; reservedAt: string }
>;
/** Why what was set aside for a Split's covered fees went back: the Split ended without paying it, or settled and needed less. */
export type SplitFeesReleaseReason = 'rejected' | 'cancelled' | 'settled';
/** What a Split no longer needs of its set-aside fees is back in the available balance; `setAsideCents` is what stays (paid as fees). */
export type SplitFeesReleased = DomainEvent<
  'company_balance.split_fees_released',
  { companyId: string; splitId: string; currency: string; amountCents: string; setAsideCents: string; reason: SplitFeesReleaseReason; releasedAt: string }
>;

/**
 * Issue 27: the enterprise paid an invoice from its balance (`paymentId`: the payment the invoice records),
 * or an overpayment of an invoice came back to it. The ledger posts both from the invoice's
 * `invoice.payment_recorded` (posting `collection`); these are the balance stream's own records.
 */
export type InvoicePaidFromBalance = DomainEvent<
  'company_balance.invoice_paid',
  { companyId: string; invoiceId: string; paymentId: string; currency: string; amountCents: string; paidAt: string }
>;
export type InvoiceOverpaymentCredited = DomainEvent<
  'company_balance.invoice_overpayment_credited',
  { companyId: string; invoiceId: string; paymentId: string; currency: string; amountCents: string; creditedAt: string }
>;

/**
 * Issue 26: Split money that came back to the SME's balance, so reservations can draw on it: a row reversal
 * (`kind: 'reversal'`, `returnId` the reversalId; the amount with the fee share platform_fees gave back) or a
 * row that failed for good and was taken back (`kind: 'take_back'`, `returnId` `take_back:<rosterEntryId>`).
 * The ledger posted it from the Split's own event; this is the balance stream's record, once per returnId.
 */
export type SplitReturnCredited = DomainEvent<
  'company_balance.split_return_credited',
  { companyId: string; splitId: string; rosterEntryId: string; returnId: string; kind: 'reversal' | 'take_back'; currency: string; amountCents: string; creditedAt: string }
>;

export type BalanceEvent =
  | BalanceToppedUp
  | BalanceReserved
  | ReservationReleased
  | ReservationPaid
  | SplitMarginCredited
  | SplitFeesReserved
  | SplitFeesReleased
  | InvoicePaidFromBalance
  | InvoiceOverpaymentCredited
  | SplitReturnCredited;
