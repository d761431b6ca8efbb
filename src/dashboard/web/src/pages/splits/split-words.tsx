import type { Me, Posting, Split } from '../../api/types';
import { money } from '../../lib/format';

/**
 * A Split's ledger and timeline in plain words (issue 29): accounts named after the company or contractor that
 * holds them, row ids replaced by the contractor's name, actors by who they are.
 */
export function accountWords(account: string, split: Split): string {
  const [kind = '', holder = ''] = account.split(':');
  const company = (id: string) => (id === split.smeCompanyId ? split.smeCompanyName : id === split.enterpriseCompanyId ? split.enterpriseCompanyName : 'A company');
  const contractor = () => split.distributions.find((row) => row.contractorPaymentProfileId === holder || row.subVendorId === holder)?.contractorDisplayName ?? 'A contractor';
  switch (kind) {
    case 'enterprise_receivable':
      return `Owed by ${company(holder)}`;
    case 'company_balance':
      return `${company(holder)} balance`;
    case 'sme_margin_hold':
      return `${company(holder)} margin (held)`;
    case 'sme_fee_due':
      return `Fees ${company(holder)} covers`;
    case 'sme_fee_reserve':
      return `${company(holder)} money set aside for fees`;
    case 'contractor_balance':
      return `${contractor()} balance`;
    case 'contractor_wallet':
      return `${contractor()} wallet`;
    case 'contractor_in_transit':
      return 'On its way to a wallet';
    case 'platform_fees':
      return 'Paysplit fees';
    default:
      return kind.replace(/_/g, ' ');
  }
}

/** Receivables grow with a debit; every other account on a Split (balances, holds, fees) grows with a credit. */
export function entryWords(entry: Posting['entries'][number], posting: Posting, split: Split): { who: string; change: string } {
  const grows = entry.account.startsWith('enterprise_receivable:') ? entry.debit !== '0' : entry.credit !== '0';
  const amount = entry.debit !== '0' ? entry.debit : entry.credit;
  return { who: accountWords(entry.account, split), change: `${grows ? '+' : '−'}${money(amount, posting.currency)}` };
}

/** What a posting did, in a sentence with names (kinds the Split's ledger shows; others fall back to the memo without ids). */
export function postingWords(posting: Posting, split: Split): string {
  const contractorAccount = posting.entries.find((entry) => entry.account.startsWith('contractor_balance:'))?.account;
  const contractor = contractorAccount ? accountWords(contractorAccount, split).replace(/ balance$/, '') : 'a contractor';
  switch (posting.kind) {
    case 'funding':
      return `${split.enterpriseCompanyName} billed; Paysplit advanced ${split.smeCompanyName} the contractors' share`;
    case 'row_transfer':
      return `Paid ${contractor}`;
    case 'margin_release':
      return `${split.smeCompanyName}'s margin released`;
    case 'withdrawal':
      return `${contractor} withdrew to a wallet`;
    default:
      return posting.memo.replace(/dst_[0-9a-z]+/g, (id) => split.distributions.find((row) => row.id === id)?.contractorDisplayName ?? 'a contractor');
  }
}

/**
 * Who did it: the reader, its colleague (by the email the history names, issue 30) or server, the other company by
 * name, or Paysplit itself.
 */
export function actorWords(actor: string | null | undefined, split: Split, me: Me, actorName?: string | null): string {
  if (!actor) return 'Paysplit';
  const [kind, id] = actor.split(':');
  if (kind === 'user') return id === me.userId ? `you (${me.email})` : (actorName ?? `someone at ${me.companyName}`);
  if (kind === 'api_key') return `${me.companyName}'s server (${actorName ?? 'API key'})`;
  if (kind === 'sme') return split.smeCompanyName;
  if (kind === 'enterprise') return split.enterpriseCompanyName;
  if (kind === 'anonymous') return 'a visitor';
  return 'Paysplit';
}
