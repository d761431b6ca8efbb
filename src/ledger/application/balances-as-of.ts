import { DocumentReader } from '../../platform/read-store/document-store.port';
import { LEDGER_LINES, LedgerLineDoc } from '../projections/ledger-lines';
import { accountsOf } from './books.query';

/** One account's balance at a moment: the balance after its last line at or before it. */
export interface AccountBalanceAsOf {
  account: string;
  accountType: string;
  currency: string;
  balanceCents: string;
}

/**
 * The owners' accounts (optionally of some kinds) as they stood at `asOf` (inclusive), read from the
 * ledger lines' running balances, never from today's figures: an account without a line by then is left
 * out. How a contractor's earnings answer `?asOf=` (issue 28).
 */
export async function accountBalancesAsOf(documents: DocumentReader, owners: string[], asOf: string, kinds?: readonly string[]): Promise<AccountBalanceAsOf[]> {
  const result: AccountBalanceAsOf[] = [];
  for (const { account, currency } of await accountsOf(documents, owners)) {
    const accountType = account.slice(0, account.indexOf(':'));
    if (kinds && !kinds.includes(accountType)) continue;
    const [last] = await documents.find<LedgerLineDoc>(LEDGER_LINES, {
      filter: { account, currency },
      range: { postedAt: { lte: asOf } },
      sort: [
        { field: 'postedAt', direction: 'desc' },
        { field: 'key', direction: 'desc' },
      ],
      limit: 1,
    });
    if (last) result.push({ account, accountType, currency, balanceCents: last.balanceAfterCents });
  }
  return result;
}
