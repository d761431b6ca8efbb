import { useState } from 'react';
import { api, ApiError, data } from '../api/client';
import type { components } from '../api/schema';
import type { Balance } from '../api/types';
import { Table } from '../components/data-list';
import { Button, EmptyState, ErrorAlert, ListState, LoadError, Loading, PageHead, useAction } from '../components/ui';
import type { Viewer } from '../lib/access';
import { humanize, Money, money, Time } from '../lib/format';
import { setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';

type Transaction = components['schemas']['BalanceTransactionDto'];
type Statement = components['schemas']['StatementDto'];

/**
 * The books of the signed-in party (issue 28, docs/money.md#reconcile): balance per currency (now, or as of a time),
 * its balance transactions with filters, a month's statement, and each as CSV. A company reads
 * /api/commerce/{balance,balance-transactions,statements}; a contractor the same of its earnings under /me/.
 */

/** What each party's lines can be (the ledger's posting kinds on its accounts). */
const COMPANY_TYPES = [
  'top_up',
  'funding',
  'row_transfer',
  'withdrawal',
  'margin_release',
  'row_reversal',
  'payout_reserve',
  'payout_release',
  'payout_paid',
  'sme_fee_set_aside',
  'sme_fee_set_aside_released',
  'sme_fee_cover_from_margin',
  'sme_fee_paid',
  'collection',
  'checkout_capture',
  'checkout_payout',
  'checkout_payout_paid',
  'checkout_payout_failed',
  'checkout_refund',
];
const CONTRACTOR_TYPES = [
  'row_transfer',
  'row_reversal',
  'contractor_withdrawal',
  'contractor_withdrawal_paid',
  'contractor_withdrawal_reversed',
  'contractor_receivable_from_withdrawal',
  'contractor_receivable_repaid',
];
const COMPANY_ACCOUNTS = [
  ['company_balance', 'Company balance'],
  ['payout_reserve', 'Payout reserve'],
  ['sme_margin_hold', 'Margin hold'],
  ['sme_fee_reserve', 'Fee reserve'],
  ['enterprise_receivable', 'Receivable'],
  ['merchant_balance', 'Checkout balance'],
  ['merchant_payout_in_transit', 'Checkout payouts in transit'],
  ['merchant_paid_out', 'Checkout paid out'],
] as const;
const CONTRACTOR_ACCOUNTS = [
  ['contractor_balance', 'Service balance'],
  ['contractor_in_transit', 'Withdrawals in transit'],
  ['contractor_wallet', 'Wallet'],
  ['contractor_receivable', 'Owed back'],
] as const;

const PAGE = 25;

/** `2026-11-05` (a day, UTC) -> its first instant; `end` gives the next day's, for an exclusive bound. */
const dayStart = (day: string, end = false) => {
  const time = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(time) ? undefined : new Date(time + (end ? 86_400_000 : 0)).toISOString();
};
/** `2026-11` -> [its first instant, the next month's] in UTC. */
const monthPeriod = (month: string): [string, string] | null => {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return null;
  const [year, index] = [Number(match[1]), Number(match[2]) - 1];
  return [new Date(Date.UTC(year, index, 1)).toISOString(), new Date(Date.UTC(year, index + 1, 1)).toISOString()];
};
const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return search ? `${path}?${search}` : path;
};

/** Fetches a route's CSV (Accept: text/csv, through the session cookie) and saves it under `filename`. */
async function downloadCsv(path: string, filename: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { accept: 'text/csv' }, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check your connection and try again.', null);
  }
  if (!response.ok) {
    const envelope = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string; details?: unknown } };
    throw new ApiError(
      response.status,
      envelope.error?.code ?? `HTTP_${response.status}`,
      envelope.error?.message ?? `The service answered ${response.status}.`,
      envelope.error?.details,
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

interface Figure {
  label: string;
  cents: string;
}

/** A company's figures per currency: what it may spend first, then every other non-zero one. */
function companyFigures(balance: Balance): Figure[] {
  const all: [string, string][] = [
    ['Reserved for Payout Embed', balance.reservedCents],
    ['Owed to contractors', balance.owedToContractorsCents],
    ['Margin held', balance.marginHeldCents],
    ['Reserved for fees', balance.reservedForFeesCents],
    ['Checkout balance', balance.checkoutBalanceCents],
    ['Checkout payouts in transit', balance.checkoutPayoutsInTransitCents],
    ['Checkout paid out', balance.checkoutPaidOutCents],
  ];
  return all.filter(([, cents]) => cents !== '0').map(([label, cents]) => ({ label, cents }));
}

export function BalancePage({ viewer }: { viewer: Viewer }) {
  const contractor = viewer.me.kind === 'contractor';
  const base = contractor ? '/api/commerce/me' : '/api/commerce';
  const { query } = useLocation();
  const filters = {
    currency: query.get('currency') ?? '',
    type: query.get('type') ?? '',
    account: query.get('account') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
  const asOfLocal = query.get('asOf') ?? '';
  const asOf = asOfLocal && !Number.isNaN(Date.parse(asOfLocal)) ? new Date(asOfLocal).toISOString() : undefined;
  const transactionQuery = {
    currency: filters.currency || undefined,
    type: filters.type || undefined,
    account: filters.account || undefined,
    from: filters.from ? dayStart(filters.from) : undefined,
    to: filters.to ? dayStart(filters.to, true) : undefined,
  };

  const balances = useResource(async (): Promise<{ currency: string; main: string; figures: Figure[] }[]> => {
    if (contractor) {
      const earnings = await data<components['schemas']['EarningsDto']>(api.GET('/api/commerce/me/earnings', { params: { query: { asOf } } }));
      return earnings.balances.map((b) => ({ currency: b.currency, main: b.availableCents, figures: b.owedCents !== '0' ? [{ label: 'Owed back', cents: b.owedCents }] : [] }));
    }
    const rows = await data<Balance[]>(api.GET('/api/commerce/balance', { params: { query: { asOf } } }));
    return rows.map((b) => ({ currency: b.currency, main: b.availableCents, figures: companyFigures(b) }));
  }, [asOf]);

  const filterKey = JSON.stringify(transactionQuery);
  const [older, setOlder] = useState<{ key: string; rows: Transaction[]; done: boolean }>({ key: '', rows: [], done: false });
  const firstPage = useResource(() => fetchTransactions(contractor, { ...transactionQuery, limit: PAGE }), [filterKey]);
  const extra = older.key === filterKey ? older : { key: filterKey, rows: [], done: false };
  const rows = firstPage.data ? [...firstPage.data, ...extra.rows] : undefined;
  const hasMore = Boolean(firstPage.data && firstPage.data.length === PAGE && !extra.done);
  const loadMore = useAction(async () => {
    const last = rows?.[rows.length - 1];
    if (!last) return;
    const page = await fetchTransactions(contractor, { ...transactionQuery, limit: PAGE, cursor: last.id });
    setOlder({ key: filterKey, rows: [...extra.rows, ...page], done: page.length < PAGE });
  });

  // The statement's month: chosen, else that of the newest line, else this month.
  const newest = firstPage.data?.[0]?.postedAt;
  const month = query.get('month') ?? (newest ?? new Date().toISOString()).slice(0, 7);
  const period = monthPeriod(month);
  const statements = useResource(
    async () => (period ? await fetchStatements(contractor, { currency: filters.currency || undefined, from: period[0], to: period[1] }) : []),
    [month, filters.currency],
  );
  const download = useAction((path: string, filename: string) => downloadCsv(path, filename));

  const currencies = balances.data?.map((b) => b.currency) ?? [];
  const types = contractor ? CONTRACTOR_TYPES : COMPANY_TYPES;
  const accountOptions = contractor ? CONTRACTOR_ACCOUNTS : COMPANY_ACCOUNTS;
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHead
        title="Balance"
        lede={
          contractor
            ? 'Your earnings as the ledger holds them: every line, statements and exports.'
            : 'Your money with Paysplit as the ledger holds it: every line that moved it, statements and exports.'
        }
      />
      <ErrorAlert error={download.error} />
      <section className="panel" aria-labelledby="balance-title">
        <div className="spread" style={{ flexWrap: 'wrap', gap: '0.75rem' }}>
          <h2 id="balance-title" style={{ margin: 0 }}>
            {asOf ? 'Balance as of a time' : 'Balance now'}
          </h2>
          <div className="row" style={{ alignItems: 'flex-end', flexWrap: 'wrap' }}>
            <div className="field" style={{ margin: 0 }}>
              <label htmlFor="balance-as-of">As of (your time)</label>
              <input id="balance-as-of" type="datetime-local" step="1" value={asOfLocal} onChange={(e) => setQuery({ asOf: e.target.value || undefined })} />
            </div>
            {asOf ? (
              <Button small onClick={() => setQuery({ asOf: undefined })}>
                Now
              </Button>
            ) : null}
          </div>
        </div>
        {balances.error && !balances.data ? (
          <LoadError error={balances.error} retry={balances.reload} />
        ) : !balances.data ? (
          <Loading />
        ) : balances.data.length === 0 ? (
          <EmptyState title={asOf ? 'No balance at that time' : 'No balance yet'}>{asOf ? 'Nothing had moved by then.' : 'Money you receive or take in shows here.'}</EmptyState>
        ) : (
          <div className="cards" style={{ marginTop: '0.75rem' }}>
            {balances.data.map((balance) => (
              <div className="stat" key={balance.currency} data-testid={`balance-${balance.currency}`}>
                <div className="label">Available · {balance.currency}</div>
                <div className="value">{money(balance.main, balance.currency)}</div>
                {balance.figures.length > 0 ? (
                  <dl className="small" style={{ margin: '0.5rem 0 0', display: 'grid', gridTemplateColumns: 'auto auto', gap: '0.15rem 0.75rem' }}>
                    {balance.figures.map((figure) => (
                      <div key={figure.label} style={{ display: 'contents' }}>
                        <dt className="muted">{figure.label}</dt>
                        <dd style={{ margin: 0, textAlign: 'right' }}>
                          <Money cents={figure.cents} currency={balance.currency} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </div>
            ))}
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="transactions-title">
        <div className="spread" style={{ flexWrap: 'wrap', gap: '0.5rem' }}>
          <h2 id="transactions-title" style={{ margin: 0 }}>
            Balance transactions
          </h2>
          <Button small busy={download.busy} onClick={() => void download.run(withQuery(`${base}/balance-transactions`, transactionQuery), 'balance-transactions.csv')}>
            Download CSV
          </Button>
        </div>
        <div className="filters">
          <div className="field">
            <label htmlFor="bt-currency">Currency</label>
            <select id="bt-currency" value={filters.currency} onChange={(e) => setQuery({ currency: e.target.value || undefined })}>
              <option value="">All currencies</option>
              {[...new Set([...currencies, ...(filters.currency ? [filters.currency] : [])])].map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="bt-type">Type</label>
            <select id="bt-type" value={filters.type} onChange={(e) => setQuery({ type: e.target.value || undefined })}>
              <option value="">All types</option>
              {types.map((t) => (
                <option key={t} value={t}>
                  {humanize(t)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="bt-account">Account</label>
            <select id="bt-account" value={filters.account} onChange={(e) => setQuery({ account: e.target.value || undefined })}>
              <option value="">All accounts</option>
              {accountOptions.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="bt-from">From (UTC day)</label>
            <input id="bt-from" type="date" value={filters.from} onChange={(e) => setQuery({ from: e.target.value || undefined })} />
          </div>
          <div className="field">
            <label htmlFor="bt-to">To (UTC day, included)</label>
            <input id="bt-to" type="date" value={filters.to} onChange={(e) => setQuery({ to: e.target.value || undefined })} />
          </div>
        </div>
        <ListState
          resource={{ ...firstPage, data: rows }}
          empty={
            <EmptyState title={filtered ? 'No lines match' : 'Nothing has moved yet'}>
              {filtered ? 'Try other filters.' : 'Every movement of your money shows here, newest first.'}
            </EmptyState>
          }
        >
          {(items) => (
            <Table
              items={items}
              rowKey={(row) => row.id}
              rowProps={(row) => ({ 'data-type': row.type })}
              columns={[
                { header: 'Date', cell: (row) => <Time iso={row.postedAt} /> },
                {
                  header: 'Type',
                  cell: (row) => (
                    <span>
                      {humanize(row.type)}
                      <div className="small muted">{row.description}</div>
                    </span>
                  ),
                },
                { header: 'Account', cell: (row) => accountLabel(row.accountType, accountOptions) },
                { header: 'Source', cell: (row) => <code className="small">{row.source}</code> },
                { header: 'Amount', num: true, cell: (row) => <Money cents={row.amountCents} currency={row.currency} /> },
                { header: 'Balance after', num: true, cell: (row) => <Money cents={row.balanceAfterCents} currency={row.currency} /> },
              ]}
            />
          )}
        </ListState>
        <ErrorAlert error={loadMore.error} />
        {hasMore ? (
          <div className="row" style={{ justifyContent: 'center', marginTop: '0.75rem' }}>
            <Button small busy={loadMore.busy} onClick={() => void loadMore.run()}>
              Load older lines
            </Button>
          </div>
        ) : null}
      </section>

      <section className="panel" aria-labelledby="statement-title">
        <div className="spread" style={{ flexWrap: 'wrap', gap: '0.5rem' }}>
          <h2 id="statement-title" style={{ margin: 0 }}>
            Statement
          </h2>
          <div className="row" style={{ alignItems: 'flex-end', flexWrap: 'wrap' }}>
            <div className="field" style={{ margin: 0 }}>
              <label htmlFor="statement-month">Month (UTC)</label>
              <input id="statement-month" type="month" value={month} onChange={(e) => setQuery({ month: e.target.value || undefined })} />
            </div>
            <Button
              small

              disabled={!period}
              busy={download.busy}
              onClick={() =>
                period && void download.run(withQuery(`${base}/statements`, { currency: filters.currency || undefined, from: period[0], to: period[1] }), `statement-${month}.csv`)
              }
            >
              Download CSV
            </Button>
          </div>
        </div>
        <ListState resource={statements} empty={<EmptyState title="No statement for this month">No account of yours had a balance or a line by then.</EmptyState>}>
          {(items) => <StatementTable items={items} accountOptions={accountOptions} />}
        </ListState>
      </section>
    </>
  );
}

function StatementTable({ items, accountOptions }: { items: Statement[]; accountOptions: readonly (readonly [string, string])[] }) {
  return (
    <Table
      items={items}
      rowKey={(s) => `${s.account}:${s.currency}`}
      rowProps={(s) => ({ 'data-account': s.accountType })}
      columns={[
        {
          header: 'Account',
          cell: (s) => (
            <span>
              {accountLabel(s.accountType, accountOptions)} · {s.currency}
              <div className="small muted">{s.totals.map((t) => `${humanize(t.type)} ${t.count} · ${money(t.amountCents, s.currency)}`).join('; ') || 'No lines this month'}</div>
            </span>
          ),
        },
        { header: 'Opening', num: true, cell: (s) => <Money cents={s.openingBalanceCents} currency={s.currency} /> },
        { header: 'Lines', num: true, cell: (s) => String(s.lines.length) },
        { header: 'Net change', num: true, cell: (s) => <Money cents={s.netChangeCents} currency={s.currency} /> },
        { header: 'Closing', num: true, cell: (s) => <Money cents={s.closingBalanceCents} currency={s.currency} /> },
      ]}
    />
  );
}

const accountLabel = (accountType: string, options: readonly (readonly [string, string])[]) => options.find(([value]) => value === accountType)?.[1] ?? humanize(accountType);

type TransactionQuery = { currency?: string; type?: string; account?: string; from?: string; to?: string; cursor?: string; limit: number };

function fetchTransactions(contractor: boolean, query: TransactionQuery): Promise<Transaction[]> {
  return contractor
    ? data<Transaction[]>(api.GET('/api/commerce/me/balance-transactions', { params: { query } }))
    : data<Transaction[]>(api.GET('/api/commerce/balance-transactions', { params: { query } }));
}

function fetchStatements(contractor: boolean, query: { currency?: string; from: string; to: string }): Promise<Statement[]> {
  return contractor
    ? data<Statement[]>(api.GET('/api/commerce/me/statements', { params: { query } }))
    : data<Statement[]>(api.GET('/api/commerce/statements', { params: { query } }));
}
