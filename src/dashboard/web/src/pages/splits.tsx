import { useState } from 'react';
import { api, data, page } from '../api/client';
import type { HistoryEntry, Posting, Split } from '../api/types';
import { Badge, Button, Confirm, EmptyState, ErrorAlert, ListState, LoadError, Loading, PageHead, Pager, StatusBadge, useAction } from '../components/ui';
import { humanize, money, Time } from '../lib/format';
import { Link, navigate, setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { RowActions, RowNotes } from './splits/row-actions';

/** What each history event means to the SME, in words (unknown types fall back to their name). */
const EVENT_LABELS: Record<string, string> = {
  'split.created': 'Created',
  'split.roster.revised': 'Roster revised',
  'split.roster_entry.withdrawal_started': 'Withdrawal to wallet started',
  'split.leg_a.approved': 'Approved by the enterprise',
  'split.leg_a.rejected': 'Rejected by the enterprise',
  'split.leg_a.claimed': 'Enterprise payment collected',
  'split.funded': 'Funded',
  'split.margin.held': 'Margin held',
  'split.margin.instant_elected': 'Margin release elected',
  'split.margin.settled': 'Margin released',
  'split.roster_entry.transfer_started': 'Transfer started',
  'split.roster_entry.settled': 'Contractor paid',
  'split.roster_entry.failed': 'Contractor payment failed',
  'split.settled': 'Settled',
  'split.cancelled': 'Cancelled',
  'split.roster_entry.reversed': 'Contractor payment reversed',
  'split.roster_entry.failed_for_good': 'Contractor payment failed for good',
  'split.roster_entry.repointed': 'Row re-pointed',
  'split.roster_entry.taken_back': 'Row taken back',
};
const eventLabel = (type: string) => EVENT_LABELS[type] ?? humanize(type.replace(/^split\./, ''));

export const SPLIT_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'FUNDED', 'SETTLING', 'SETTLED', 'REJECTED', 'CANCELLED'] as const;
type SplitStatus = (typeof SPLIT_STATUSES)[number];

export function SplitsPage() {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as SplitStatus | '';
  const unpaidOnly = query.get('unpaid') === '1';
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const splits = useResource(
    () => page<Split[]>(api.GET('/api/commerce/splits/outgoing', { params: { query: { status: status || undefined, page: pageNumber, limit: 20 } } })),
    [status, pageNumber],
  );
  return (
    <>
      <PageHead title="Splits" lede="Invoices you sent to enterprises, and how each contractor's share moves." />
      <section className="panel" aria-labelledby="splits-title">
        <h2 id="splits-title" className="visually-hidden">
          Your Splits
        </h2>
        <div className="filters">
          <div className="field" style={{ maxWidth: '16rem' }}>
            <label htmlFor="split-status">Status</label>
            <select id="split-status" value={status} onChange={(e) => setQuery({ status: e.target.value || undefined, page: undefined })}>
              <option value="">All statuses</option>
              {SPLIT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label>
              <input type="checkbox" checked={unpaidOnly} onChange={(e) => setQuery({ unpaid: e.target.checked ? '1' : undefined })} /> Only Splits whose bill is unpaid (this page)
            </label>
          </div>
        </div>
        <ListState
          resource={{ ...splits, data: unpaidOnly ? splits.data?.data.filter((split) => split.collectionStatus !== null && split.collectionStatus !== 'PAID') : splits.data?.data }}
          empty={
            unpaidOnly ? (
              <EmptyState title="No unpaid bills on this page">Every funded Split here has been paid by its enterprise, or is not billed yet.</EmptyState>
            ) : (
              <EmptyState title={status ? 'No Splits with this status' : 'No Splits yet'}>
                {status ? 'Try another status.' : 'Your server creates Splits with an API key (POST /api/commerce/integration/splits); they appear here.'}
              </EmptyState>
            )
          }
        >
          {(items) => <SplitTable items={items} counterparty="enterprise" />}
        </ListState>
        <Pager meta={splits.data?.meta ?? null} onPage={(p) => setQuery({ page: String(p) })} />
      </section>
    </>
  );
}

export function SplitTable({ items, counterparty }: { items: Split[]; counterparty: 'enterprise' | 'sme' }) {
  return (
    <div className="table-wrap">
      <table className="responsive">
        <thead>
          <tr>
            <th>Split</th>
            <th>{counterparty === 'enterprise' ? 'Billed to' : 'From'}</th>
            <th>Status</th>
            <th>Bill</th>
            <th className="num">Total</th>
            <th className="num">Rows</th>
          </tr>
        </thead>
        <tbody>
          {items.map((split) => (
            <tr key={split.id} className="clickable" onClick={() => navigate(`/splits/${split.id}`)}>
              <td data-label="Split">
                <Link to={`/splits/${split.id}`} onClick={(e) => e.stopPropagation()}>
                  <code>{split.id}</code>
                </Link>
              </td>
              <td data-label={counterparty === 'enterprise' ? 'Billed to' : 'From'}>{counterparty === 'enterprise' ? split.enterpriseCompanyName : split.smeCompanyName}</td>
              <td data-label="Status">
                <StatusBadge status={split.status} />
              </td>
              <td data-label="Bill">
                {split.collectionStatus ? <StatusBadge status={split.collectionStatus} /> : <span className="muted">—</span>}
                {split.approvalBlockedReason ? <div className="small muted">Waits: the enterprise has an overdue bill</div> : null}
              </td>
              <td data-label="Total" className="num">
                {money(split.totalAmountCents, split.currency)}
              </td>
              <td data-label="Rows" className="num">
                {split.distributions.length}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SplitDetailPage({ id }: { id: string }) {
  const [asOf, setAsOf] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [settling, setSettling] = useState(false);
  const split = useResource(() => data<Split>(api.GET('/api/commerce/splits/{id}', { params: { path: { id }, query: asOf ? { asOf } : {} } })), [id, asOf]);
  const history = useResource(() => data<HistoryEntry[]>(api.GET('/api/commerce/splits/{id}/history', { params: { path: { id } } })), [id]);
  const ledger = useResource(() => data<Posting[]>(api.GET('/api/commerce/splits/{id}/ledger', { params: { path: { id } } })), [id]);
  const reloadAll = () => {
    split.reload();
    history.reload();
    ledger.reload();
  };
  const payout = useAction(async (distributionId: string, who: string) => {
    await data(api.POST('/api/commerce/integration/splits/{id}/distributions/{distributionId}/payout', { params: { path: { id, distributionId } } }));
    setNotice(`Payout to ${who} requested.`);
    reloadAll();
  });
  const settle = useAction(async () => {
    await data(api.POST('/api/commerce/splits/{id}/settle-margin', { params: { path: { id } } }));
    setSettling(false);
    setNotice('The margin is settled to your balance.');
    reloadAll();
  });
  if (split.error && !split.data) return <LoadError error={split.error} retry={split.reload} />;
  if (!split.data) return <Loading />;
  const s = split.data;
  const marginSettleable = !asOf && (s.marginStatus === 'HELD' || s.marginStatus === 'PENDING');
  return (
    <>
      <p className="small" style={{ margin: '0 0 0.5rem' }}>
        <Link to="/splits">← Splits</Link>
      </p>
      <PageHead
        title={`${money(s.totalAmountCents, s.currency)} to ${s.enterpriseCompanyName}`}
        lede={
          <>
            <code>{s.id}</code> · from {s.smeCompanyName}
          </>
        }
        actions={
          <>
            <span data-testid="split-status">
              <StatusBadge status={s.status} />
            </span>
            <Button small icon="refresh" busy={split.loading} onClick={reloadAll}>
              Refresh
            </Button>
          </>
        }
      />
      {asOf ? (
        <div className="alert info spread" role="status">
          <span>
            Showing this Split as it stood at <Time iso={asOf} />.
          </span>
          <Button small onClick={() => setAsOf(null)}>
            Back to now
          </Button>
        </div>
      ) : null}
      {notice ? (
        <div className="alert success" role="status">
          {notice}
        </div>
      ) : null}
      <ErrorAlert error={payout.error} />
      <div className="cards">
        <div className="stat">
          <div className="label">Total billed</div>
          <div className="value">{money(s.totalAmountCents, s.currency)}</div>
        </div>
        <div className="stat">
          <div className="label">Margin</div>
          <div className="value">{money(s.marginAmountCents, s.currency)}</div>
          <div className="sub" data-testid="margin-status">
            {humanize(s.marginStatus)}
          </div>
          {marginSettleable ? (
            <Button small variant="primary" onClick={() => (settle.setError(null), setSettling(true))} style={{ marginTop: '0.5rem' }}>
              Settle margin
            </Button>
          ) : null}
        </div>
        <div className="stat">
          <div className="label">Contractors</div>
          <div className="value">{s.distributions.length}</div>
        </div>
        <div className="stat">
          <div className="label">Enterprise&rsquo;s bill</div>
          <div className="value" data-testid="collection-status">
            {s.collectionStatus ? <StatusBadge status={s.collectionStatus} /> : <span className="muted small">Billed when the Split funds</span>}
          </div>
          {s.approvalBlockedReason ? <div className="sub">Waits: the enterprise has a bill overdue too long and cannot approve until it pays.</div> : null}
        </div>
      </div>
      <section className="panel" aria-labelledby="rows-title">
        <h2 id="rows-title">Distributions</h2>
        <div className="table-wrap">
          <table className="responsive">
            <thead>
              <tr>
                <th>Contractor</th>
                <th>Status</th>
                <th className="num">Amount</th>
                <th className="num">Fee</th>
                <th className="num">Net</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {s.distributions.map((row) => (
                <tr key={row.id}>
                  <td data-label="Contractor">
                    {row.contractorDisplayName}
                    {row.earlyPayoutElected ? (
                      <>
                        {' '}
                        <Badge tone="info">Instant</Badge>
                      </>
                    ) : null}
                    {row.failureReason ? (
                      <div className="small" style={{ color: 'var(--bad)' }}>
                        {row.failureReason}
                      </div>
                    ) : null}
                    <RowNotes row={row} currency={s.currency} />
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={row.status} />
                  </td>
                  <td data-label="Amount" className="num">
                    {money(row.amountCents, s.currency)}
                  </td>
                  <td data-label="Fee" className="num">
                    {money(row.feeAmountCents, s.currency)}
                  </td>
                  <td data-label="Net" className="num">
                    {money(row.netAmountCents, s.currency)}
                  </td>
                  <td className="actions">
                    {!asOf && row.status === 'PENDING' && (s.status === 'APPROVED' || s.status === 'FUNDED') ? (
                      <Button small busy={payout.busy} onClick={() => void payout.run(row.id, row.contractorDisplayName)} aria-label={`Pay out ${row.contractorDisplayName} now`}>
                        Pay out now
                      </Button>
                    ) : null}
                    {!asOf ? <RowActions split={s} row={row} onDone={(message) => (setNotice(message), reloadAll())} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div className="grid-2">
        <section className="panel" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <p className="small muted" style={{ marginTop: 0 }}>
            Select an event to see the Split as it stood then.
          </p>
          <ListState resource={history} empty={<EmptyState title="No history" />}>
            {(items) => (
              <ol className="timeline" data-testid="timeline">
                {items.map((entry) => (
                  <li key={entry.revision} className={asOf && entry.occurredAt > asOf ? 'future' : undefined}>
                    <button
                      className="btn btn-ghost"
                      style={{ padding: 0, minHeight: 0, fontWeight: 600 }}
                      onClick={() => setAsOf(entry.occurredAt)}
                      aria-pressed={asOf === entry.occurredAt}
                    >
                      {eventLabel(entry.type)}
                    </button>
                    <div className="small muted">
                      <Time iso={entry.occurredAt} />
                      {entry.actor ? ` · ${entry.actor.split(':')[0]!.replace('_', ' ')}` : ''}
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </ListState>
        </section>
        <section className="panel" aria-labelledby="ledger-title">
          <h2 id="ledger-title">Ledger postings</h2>
          <ListState resource={ledger} empty={<EmptyState title="Nothing posted yet">Postings appear once the Split is approved.</EmptyState>}>
            {(items) => (
              <ol style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {items.map((posting) => (
                  <li key={posting.id} style={{ borderTop: '1px solid var(--line)', padding: '0.6rem 0' }}>
                    <div className="spread">
                      <strong>{humanize(posting.kind)}</strong>
                      <span className="small muted">
                        <Time iso={posting.postedAt} />
                      </span>
                    </div>
                    <div className="small muted">{posting.memo}</div>
                    <table style={{ marginTop: '0.35rem', fontSize: '0.8rem' }}>
                      <tbody>
                        {posting.entries.map((entry, index) => (
                          <tr key={index}>
                            <td style={{ padding: '0.2rem 0.5rem 0.2rem 0' }}>
                              <code>{entry.account.split(':')[0]}</code>
                            </td>
                            <td className="num" style={{ padding: '0.2rem 0' }}>
                              {entry.debit !== '0' ? `Dr ${money(entry.debit, posting.currency)}` : `Cr ${money(entry.credit, posting.currency)}`}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </li>
                ))}
              </ol>
            )}
          </ListState>
        </section>
      </div>
      <Confirm
        open={settling}
        title="Settle the margin now?"
        body={`${money(s.marginAmountCents, s.currency)} moves from the held margin to your available balance.`}
        confirmLabel="Settle margin"
        danger={false}
        busy={settle.busy}
        error={settle.error}
        onConfirm={() => void settle.run()}
        onCancel={() => setSettling(false)}
      />
    </>
  );
}
