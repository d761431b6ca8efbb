import { Cents, formatCents } from '../../platform/money/money';

/** One side of a posting: an account and a debit or a credit in minor units. */
export interface Entry {
  account: string;
  debit: string;
  credit: string;
}

/** A balanced double-entry posting: per currency, debits equal credits. It belongs to a Split, a company's balance stream, a contractor's withdrawal, a checkout order or an incoming bank transfer. */
export type Posting = SplitPosting | BalancePosting | WithdrawalPosting | CheckoutPosting | TransferPosting;

/** A Split's money movement: funding, a row's transfer or withdrawal, the margin's release. */
export interface SplitPosting extends PostingBase {
  splitId: string;
  /** A `collection` posting (issue 27): the invoice's payment it records (a bank transfer's id, for one). */
  paymentId?: string;
}

/** Issue 27: an incoming bank transfer, matched to an invoice (then applied by its `collection`) or parked for review. */
export interface TransferPosting extends PostingBase {
  transferId: string;
}

/** The bank transfer of a transfer posting, when it is one (else undefined). */
export const transferOf = (posting: Posting): string | undefined => ('transferId' in posting ? posting.transferId : undefined);

/** A company balance movement: a top-up, or a Payout Embed reservation, its release or its payment. */
export interface BalancePosting extends PostingBase {
  /** The company whose balance stream made it. */
  companyId: string;
  /** The Payout Embed session of a reservation posting (reserve, release, pay). */
  sessionId?: string;
}

/** A contractor's withdrawal (docs/earnings.md): its request, then its payment or reversal. */
export interface WithdrawalPosting extends PostingBase {
  /** The withdrawal's payout. */
  payoutId: string;
}

/** A checkout order's money movement (issue 26): its capture, its merchant payout, a refund. */
export interface CheckoutPosting extends PostingBase {
  orderId: string;
  /** The merchant company. */
  companyId: string;
}

export const isSplitPosting = (posting: Posting): posting is SplitPosting => 'splitId' in posting;
export const isCheckoutPosting = (posting: Posting): posting is CheckoutPosting => 'orderId' in posting;
/** The posting of a Payout Embed session's reservation, release or payment, when it is one (else undefined). */
export const sessionOf = (posting: Posting): string | undefined => ('sessionId' in posting ? posting.sessionId : undefined);

/** The withdrawal payout of a contractor withdrawal posting, when it is one (else undefined). */
export const withdrawalOf = (posting: Posting): string | undefined => ('payoutId' in posting ? posting.payoutId : undefined);

interface PostingBase {
  id: string;
  sequence: number;
  /** Global log position of the event that caused it: ledger:verify applies postings in log order. */
  position: number;
  currency: string;
  kind: PostingKind;
  memo: string;
  postedAt: string;
  /** The event that caused it (audit trail back into the log). */
  eventId: string;
  entries: Entry[];
}

export type PostingKind =
  | 'funding'
  | 'row_transfer'
  | 'withdrawal'
  | 'margin_release'
  | 'top_up'
  | 'payout_reserve'
  | 'payout_release'
  | 'payout_paid'
  | 'contractor_withdrawal'
  | 'contractor_withdrawal_paid'
  | 'contractor_withdrawal_reversed'
  | 'sme_fee_set_aside'
  | 'sme_fee_set_aside_released'
  | 'sme_fee_cover_from_margin'
  | 'sme_fee_paid'
  // Checkout (issue 26, docs/money.md#checkout-money)
  | 'checkout_capture'
  | 'checkout_payout'
  | 'checkout_payout_paid'
  | 'checkout_payout_failed'
  | 'checkout_refund'
  // Issue 26: a row reversal, the receivable it leaves when the contractor already withdrew, and its repayment.
  | 'row_reversal'
  | 'contractor_receivable_from_withdrawal'
  | 'contractor_receivable_repaid'
  // Issue 27: an invoice payment clears the enterprise receivable; an incoming bank transfer is received, then applied or parked.
  | 'collection'
  | 'transfer_received'
  | 'transfer_parked'
  // Issue 27: a parked transfer resolved: applied to an invoice (then its `collection`) or returned to its sender.
  | 'transfer_resolved';

/**
 * The chart of accounts. Balances are debit-positive for assets the platform holds a claim on
 * (receivables) and credit-positive for what it owes (balances of SMEs and contractors, fees earned).
 */
export const accounts = {
  enterpriseReceivable: (enterpriseId: string) => `enterprise_receivable:${enterpriseId}`,
  /**
   * A company's service balance per currency: Split funding credits it (the SME's roster sum), margin
   * release tops it up, top-ups add to it, Payout Embed reserves from it.
   */
  companyBalance: (companyId: string) => `company_balance:${companyId}`,
  /** Money reserved for Payout Embed sessions not yet paid or released. */
  payoutReserve: (companyId: string) => `payout_reserve:${companyId}`,
  /** What a Payout Embed recipient's wallet received. */
  recipientWallet: (email: string) => `recipient_wallet:${email}`,
  /** Sandbox top-ups: money that entered from outside (a real deposit rail would post here too). */
  companyDeposits: (companyId: string) => `company_deposits:${companyId}`,
  smeMarginHold: (smeId: string) => `sme_margin_hold:${smeId}`,
  /**
   * Fees the SME chose to cover: a row's transfer debits the fee here (the platform advances it) and the
   * SME pays it at once out of sme_fee_reserve; on Splits created before issue 23 it was recovered from
   * the margin when released instead.
   */
  smeFeeDue: (smeId: string) => `sme_fee_due:${smeId}`,
  /**
   * The SME's own money set aside for the fees it covers (issue 23): from its company balance when it
   * elects them, from a Split's margin at funding (or at an on-demand payout while the margin is held).
   * Each covered row's transfer pays its fee out of it. Never negative.
   */
  smeFeeReserve: (smeId: string) => `sme_fee_reserve:${smeId}`,
  contractorBalance: (contractor: string) => `contractor_balance:${contractor}`,
  contractorWallet: (contractor: string) => `contractor_wallet:${contractor}`,
  /** A contractor's withdrawal on its way to its wallet (per person: usr_), between request and the rail's answer. */
  contractorInTransit: (userId: string) => `contractor_in_transit:${userId}`,
  platformFees: () => 'platform_fees',
  /**
   * Checkout (issue 26), per merchant company and currency. processor_clearing: what buyers paid for the
   * merchant's orders, less what refunds gave back (debit-positive: the processors took it for us).
   */
  processorClearing: (companyId: string) => `processor_clearing:${companyId}`,
  /** What we owe the merchant of its checkout money and have not paid out yet; negative after a refund of money already paid out, until later orders net it. */
  merchantBalance: (companyId: string) => `merchant_balance:${companyId}`,
  /** Merchant payouts requested on the rail, not yet answered. */
  merchantPayoutInTransit: (companyId: string) => `merchant_payout_in_transit:${companyId}`,
  /** What merchant payouts delivered, ever. */
  merchantPaidOut: (companyId: string) => `merchant_paid_out:${companyId}`,
  /**
   * What a contractor account owes the platform (issue 26, debit-positive): the part of a row reversal it
   * had already withdrawn, which the platform advanced to the SME. Its next credits repay it first.
   */
  contractorReceivable: (contractor: string) => `contractor_receivable:${contractor}`,
  /** Issue 27: money the platform received from outside (card captures and bank transfers paying invoices). */
  platformCash: () => 'platform_cash',
  /** A bank transfer matched to an invoice, received but not yet applied to it (zero once applied). */
  transfersUnapplied: () => 'transfers_unapplied',
  /** Bank transfers whose reference named no invoice: parked for review, never lost. */
  parkedTransfers: () => 'parked_transfers',
} as const;

export const debit = (account: string, amount: Cents): Entry => ({ account, debit: formatCents(amount), credit: '0' });
export const credit = (account: string, amount: Cents): Entry => ({ account, debit: '0', credit: formatCents(amount) });

/** Drops zero lines so a posting shows only what moved. */
export function nonZero(entries: Entry[]): Entry[] {
  return entries.filter((e) => e.debit !== '0' || e.credit !== '0');
}

export function isBalanced(posting: Pick<Posting, 'entries'>): boolean {
  let debits = 0n;
  let credits = 0n;
  for (const entry of posting.entries) {
    debits += BigInt(entry.debit);
    credits += BigInt(entry.credit);
  }
  return debits === credits;
}
