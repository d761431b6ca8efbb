import { Cents, formatCents } from '../../platform/money/money';

/** One side of a posting: an account and a debit or a credit in minor units. */
export interface Entry {
  account: string;
  debit: string;
  credit: string;
}

/** A balanced double-entry posting: per currency, debits equal credits. */
export interface Posting {
  id: string;
  splitId: string;
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

export type PostingKind = 'funding' | 'row_transfer' | 'withdrawal' | 'margin_release';

/**
 * The chart of accounts. Balances are debit-positive for assets the platform holds a claim on
 * (receivables) and credit-positive for what it owes (balances of SMEs and contractors, fees earned).
 */
export const accounts = {
  enterpriseReceivable: (enterpriseId: string) => `enterprise_receivable:${enterpriseId}`,
  smeBalance: (smeId: string) => `sme_balance:${smeId}`,
  smeMarginHold: (smeId: string) => `sme_margin_hold:${smeId}`,
  /** Fees the SME chose to cover, advanced by the platform and recovered from the margin when it is released. */
  smeFeeDue: (smeId: string) => `sme_fee_due:${smeId}`,
  contractorBalance: (contractor: string) => `contractor_balance:${contractor}`,
  contractorWallet: (contractor: string) => `contractor_wallet:${contractor}`,
  platformFees: () => 'platform_fees',
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
