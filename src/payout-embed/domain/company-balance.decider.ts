import { assertNever, Decider } from '../../platform/domain/decider';
import {
  IdempotencyKeyReusedError,
  PayoutEmbedReservationAbandonedError,
  PayoutEmbedReservationNotHeldError,
  PayoutInsufficientBalanceError,
  SmeFeeNotCoveredError,
} from './payout-embed.errors';
import { BalanceEvent, ReleaseReason, SplitFeesReleaseReason, SplitReturnCredited } from './payout-embed.events';
import { CommandMetadata } from '../../platform/domain/command';

export type CompanyBalanceCommand =
  | { type: 'TopUp'; data: { companyId: string; topUpId: string; currency: string; amountCents: string }; metadata: CommandMetadata }
  | { type: 'Reserve'; data: { companyId: string; sessionId: string; currency: string; amountCents: string; requestHash: string }; metadata: CommandMetadata }
  | { type: 'Release'; data: { sessionId: string; reason: ReleaseReason }; metadata: CommandMetadata }
  | { type: 'Pay'; data: { sessionId: string; payoutId: string; walletEmail: string }; metadata: CommandMetadata }
  | { type: 'CreditSplitMargin'; data: { companyId: string; splitId: string; currency: string; amountCents: string }; metadata: CommandMetadata }
  | { type: 'SetAsideSplitFees'; data: { companyId: string; splitId: string; currency: string; requiredCents: string }; metadata: CommandMetadata }
  | { type: 'ReleaseSplitFees'; data: { splitId: string; keepCents: string; reason: SplitFeesReleaseReason }; metadata: CommandMetadata }
  | { type: 'PayInvoice'; data: { companyId: string; invoiceId: string; paymentId: string; currency: string; amountCents: string }; metadata: CommandMetadata }
  | { type: 'CreditInvoiceOverpayment'; data: { companyId: string; invoiceId: string; paymentId: string; currency: string; amountCents: string }; metadata: CommandMetadata }
  | { type: 'CreditSplitReturn'; data: Omit<SplitReturnCredited['data'], 'creditedAt'>; metadata: CommandMetadata };

/** What is set aside for one Split's covered fees; `closed` once the Split ended (nothing more is set aside for it). */
export interface SplitFeesSetAside {
  currency: string;
  setAsideCents: bigint;
  closed: boolean;
}

export interface Reservation {
  currency: string;
  amountCents: bigint;
  requestHash: string;
  status: 'reserved' | 'released' | 'paid';
}

export interface CompanyBalanceState {
  companyId: string | null;
  /** Per currency: what Payout Embed may still reserve, and what is reserved now. */
  available: Record<string, bigint>;
  reserved: Record<string, bigint>;
  reservations: Record<string, Reservation>;
  topUps: Record<string, true>;
  /** Splits whose released margin was credited already (once each). */
  splitMargins: ReadonlySet<string>;
  /** Per Split: what is set aside for the fees its SME covers (issue 23); absent on states folded before it was kept. */
  splitFees?: Readonly<Record<string, SplitFeesSetAside>>;
  /** Issue 27: invoice payments taken from the balance (by paymentId, with their amount) and overpayments credited to it. */
  invoicePayments?: Readonly<Record<string, string>>;
  invoiceCredits?: ReadonlySet<string>;
  /** Issue 26: Split money returned to the balance (row reversals, taken-back rows), by returnId, credited once each. */
  splitReturns?: ReadonlySet<string>;
}

/**
 * The company's spendable balance per currency, as one stream per company (`balance-<companyId>`).
 * Every reservation is decided on this stream at its latest revision, so two concurrent creates are
 * serialized by the append's expected revision: the loser reloads, sees the first reservation and is
 * refused if the rest does not cover it (docs/decisions.md, issue 17). A reservation ends exactly
 * once: released or paid; repeats decide nothing, but paying a released (or unknown) reservation is
 * refused with PAYOUT_EMBED_RESERVATION_NOT_HELD (issue 23).
 */
export const companyBalanceDecider: Decider<CompanyBalanceCommand, BalanceEvent, CompanyBalanceState> = {
  initialState: () => ({ companyId: null, available: {}, reserved: {}, reservations: {}, topUps: {}, splitMargins: new Set() }),
  decide(command, state) {
    switch (command.type) {
      case 'TopUp': {
        const d = command.data;
        if (state.topUps[d.topUpId]) return [];
        return [
          {
            type: 'company_balance.topped_up',
            data: { companyId: d.companyId, topUpId: d.topUpId, currency: d.currency, amountCents: d.amountCents, toppedUpAt: command.metadata.now },
          },
        ];
      }
      case 'Reserve': {
        const d = command.data;
        const existing = state.reservations[d.sessionId];
        if (existing) {
          if (existing.requestHash !== d.requestHash) throw new IdempotencyKeyReusedError();
          // Released before its session was written (abandoned): the key cannot start a session any more.
          if (existing.status === 'released') throw new PayoutEmbedReservationAbandonedError();
          return [];
        }
        const available = state.available[d.currency] ?? 0n;
        if (available < BigInt(d.amountCents)) throw new PayoutInsufficientBalanceError(d.currency, available.toString(), d.amountCents);
        return [
          {
            type: 'company_balance.reserved',
            data: {
              companyId: d.companyId,
              sessionId: d.sessionId,
              currency: d.currency,
              amountCents: d.amountCents,
              requestHash: d.requestHash,
              reservedAt: command.metadata.now,
            },
          },
        ];
      }
      case 'CreditSplitMargin':
        return creditSplitMargin(command.data, state, command.metadata);
      case 'SetAsideSplitFees':
        return setAsideSplitFees(command.data, state, command.metadata);
      case 'ReleaseSplitFees':
        return releaseSplitFees(command.data, state, command.metadata);
      case 'PayInvoice':
        return payInvoice(command.data, state, command.metadata);
      case 'CreditInvoiceOverpayment':
        return creditInvoiceOverpayment(command.data, state, command.metadata);
      case 'CreditSplitReturn':
        return creditSplitReturn(command.data, state, command.metadata);
      case 'Release':
      case 'Pay': {
        const reservation = state.reservations[command.data.sessionId];
        // Paying what is not held would send money without a debit: refused, never skipped (issue 23).
        if (command.type === 'Pay' && reservation?.status !== 'reserved' && reservation?.status !== 'paid') {
          throw new PayoutEmbedReservationNotHeldError(command.data.sessionId, reservation?.status ?? 'unknown');
        }
        if (!reservation || reservation.status !== 'reserved' || state.companyId === null) return [];
        const base = { companyId: state.companyId, sessionId: command.data.sessionId, currency: reservation.currency, amountCents: reservation.amountCents.toString() };
        return command.type === 'Release'
          ? [{ type: 'company_balance.reservation_released', data: { ...base, reason: command.data.reason, releasedAt: command.metadata.now } }]
          : [{ type: 'company_balance.reservation_paid', data: { ...base, payoutId: command.data.payoutId, walletEmail: command.data.walletEmail, paidAt: command.metadata.now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    const d = event.data;
    const amount = BigInt(d.amountCents);
    const add = (book: Record<string, bigint>, delta: bigint) => ({ ...book, [d.currency]: (book[d.currency] ?? 0n) + delta });
    switch (event.type) {
      case 'company_balance.topped_up':
        return { ...state, companyId: d.companyId, available: add(state.available, amount), topUps: { ...state.topUps, [event.data.topUpId]: true } };
      case 'company_balance.reserved':
        return {
          ...state,
          companyId: d.companyId,
          available: add(state.available, -amount),
          reserved: add(state.reserved, amount),
          reservations: { ...state.reservations, [event.data.sessionId]: { currency: d.currency, amountCents: amount, requestHash: event.data.requestHash, status: 'reserved' } },
        };
      case 'company_balance.reservation_released':
        return {
          ...state,
          available: add(state.available, amount),
          reserved: add(state.reserved, -amount),
          reservations: { ...state.reservations, [event.data.sessionId]: { ...state.reservations[event.data.sessionId]!, status: 'released' } },
        };
      case 'company_balance.reservation_paid':
        return {
          ...state,
          reserved: add(state.reserved, -amount),
          reservations: { ...state.reservations, [event.data.sessionId]: { ...state.reservations[event.data.sessionId]!, status: 'paid' } },
        };
      case 'company_balance.split_margin_credited':
        return { ...state, companyId: d.companyId, available: add(state.available, amount), splitMargins: new Set(state.splitMargins).add(event.data.splitId) };
      case 'company_balance.split_fees_reserved':
      case 'company_balance.split_fees_released': {
        const back = event.type === 'company_balance.split_fees_released';
        const fees: SplitFeesSetAside = { currency: d.currency, setAsideCents: BigInt(event.data.setAsideCents), closed: back };
        return { ...state, companyId: d.companyId, available: add(state.available, back ? amount : -amount), splitFees: { ...state.splitFees, [event.data.splitId]: fees } };
      }
      case 'company_balance.invoice_paid':
        return { ...state, companyId: d.companyId, available: add(state.available, -amount), invoicePayments: { ...state.invoicePayments, [event.data.paymentId]: d.amountCents } };
      case 'company_balance.invoice_overpayment_credited':
        return { ...state, companyId: d.companyId, available: add(state.available, amount), invoiceCredits: new Set(state.invoiceCredits).add(event.data.paymentId) };
      case 'company_balance.split_return_credited':
        return { ...state, companyId: d.companyId, available: add(state.available, amount), splitReturns: new Set(state.splitReturns).add(event.data.returnId) };
      default:
        return assertNever(event);
    }
  },
};

/** A released Split margin becomes reservable, once per Split; a margin the covered fees used up entirely credits nothing. */
function creditSplitMargin(data: Extract<CompanyBalanceCommand, { type: 'CreditSplitMargin' }>['data'], state: CompanyBalanceState, meta: CommandMetadata): BalanceEvent[] {
  if (state.splitMargins.has(data.splitId) || BigInt(data.amountCents) <= 0n) return [];
  return [
    {
      type: 'company_balance.split_margin_credited',
      data: { companyId: data.companyId, splitId: data.splitId, currency: data.currency, amountCents: data.amountCents, creditedAt: meta.now },
    },
  ];
}

/**
 * Sets aside from the available balance what a Split's covered fees need of the SME's own money
 * (docs/money.md#fees-the-sme-covers), before the election is recorded on the Split: 422
 * SME_FEE_NOT_COVERED and nothing appended when the balance is short. It only ever grows while the
 * Split is open: `requiredCents` is the whole amount the Split needs after the decision about to be
 * appended, so a repeat, an older decision or one that needs less sets nothing aside (what was set aside
 * is given back when the Split ends: ReleaseSplitFees). A Split that ended sets nothing aside again.
 */
function setAsideSplitFees(data: Extract<CompanyBalanceCommand, { type: 'SetAsideSplitFees' }>['data'], state: CompanyBalanceState, meta: CommandMetadata): BalanceEvent[] {
  const existing = state.splitFees?.[data.splitId];
  const required = BigInt(data.requiredCents);
  const setAside = existing?.setAsideCents ?? 0n;
  if (existing?.closed || required <= setAside) return [];
  const more = required - setAside;
  const available = state.available[data.currency] ?? 0n;
  if (available < more) throw new SmeFeeNotCoveredError(data.currency, available.toString(), more.toString(), data.splitId);
  return [
    {
      type: 'company_balance.split_fees_reserved',
      data: { companyId: data.companyId, splitId: data.splitId, currency: data.currency, amountCents: more.toString(), setAsideCents: required.toString(), reservedAt: meta.now },
    },
  ];
}

/** The Split ended: what it does not keep (its covered fees paid from the balance; nothing when rejected or cancelled) is available again, once. */
function releaseSplitFees(data: Extract<CompanyBalanceCommand, { type: 'ReleaseSplitFees' }>['data'], state: CompanyBalanceState, meta: CommandMetadata): BalanceEvent[] {
  const existing = state.splitFees?.[data.splitId];
  if (!existing || existing.closed || state.companyId === null) return [];
  const keep = BigInt(data.keepCents);
  const back = existing.setAsideCents - keep;
  if (back <= 0n) return [];
  return [
    {
      type: 'company_balance.split_fees_released',
      data: {
        companyId: state.companyId,
        splitId: data.splitId,
        currency: existing.currency,
        amountCents: back.toString(),
        setAsideCents: keep.toString(),
        reason: data.reason,
        releasedAt: meta.now,
      },
    },
  ];
}

/**
 * Issue 27: the enterprise pays an invoice from its available balance, once per payment (the same paymentId
 * with another amount is 409 IDEMPOTENCY_KEY_REUSED); 422 PAYOUT_INSUFFICIENT_BALANCE when it does not cover it.
 */
function payInvoice(data: Extract<CompanyBalanceCommand, { type: 'PayInvoice' }>['data'], state: CompanyBalanceState, meta: CommandMetadata): BalanceEvent[] {
  const paid = state.invoicePayments?.[data.paymentId];
  if (paid !== undefined) {
    if (paid !== data.amountCents) throw new IdempotencyKeyReusedError();
    return [];
  }
  const available = state.available[data.currency] ?? 0n;
  if (available < BigInt(data.amountCents)) throw new PayoutInsufficientBalanceError(data.currency, available.toString(), data.amountCents);
  return [{ type: 'company_balance.invoice_paid', data: { ...data, paidAt: meta.now } }];
}

/** What a payment brought beyond an invoice's rest is the enterprise's again, once per payment. */
function creditInvoiceOverpayment(
  data: Extract<CompanyBalanceCommand, { type: 'CreditInvoiceOverpayment' }>['data'],
  state: CompanyBalanceState,
  meta: CommandMetadata,
): BalanceEvent[] {
  if (state.invoiceCredits?.has(data.paymentId) || BigInt(data.amountCents) <= 0n) return [];
  return [{ type: 'company_balance.invoice_overpayment_credited', data: { ...data, creditedAt: meta.now } }];
}

/** Split money a reversal or a take-back returned to the SME is reservable, once per return (a replayed event credits nothing). */
function creditSplitReturn(data: Extract<CompanyBalanceCommand, { type: 'CreditSplitReturn' }>['data'], state: CompanyBalanceState, meta: CommandMetadata): BalanceEvent[] {
  if (state.splitReturns?.has(data.returnId) || BigInt(data.amountCents) <= 0n) return [];
  return [{ type: 'company_balance.split_return_credited', data: { ...data, creditedAt: meta.now } }];
}
