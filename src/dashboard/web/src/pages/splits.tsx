import { useState } from 'react';
import { api, data, page } from '../api/client';
import type { HistoryEntry, PayoutPreview, Posting, Split } from '../api/types';
import { Notice, Table } from '../components/data-list';
import { Badge, Button, Confirm, EmptyState, ErrorAlert, ListState, LoadError, Loading, PageHead, Pager, StatusBadge, useAction } from '../components/ui';
import { canDo, canDoOnSplit, canSee, sideOf, splitListOf, type SplitAction, type Viewer } from '../lib/access';
import { actorWords, entryWords, postingWords } from './splits/split-words';
import { humanize, money, Time } from '../lib/format';
import { Link, setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { RowActions, RowNotes } from './splits/row-actions';
import { SplitSecondPerson, waitingFor } from './splits/second-person';

/** What each history event means to the SME, in words (unknown types fall back to their name). */
const EVENT_LABELS: Record<string, string> = {
  'split.created': 'Created',
  'split.roster.revised': 'Roster revised',
  'split.roster_entry.withdrawal_started': 'Withdrawal to wallet started',
  'split.second_person.requested': 'Asked for a second person',
  'split.second_person.confirmed': 'Confirmed by a second person',
  'split.leg_a.approved': 'Approved by the enterprise',
  'split.leg_a.rejected': 'Rejected by the enterprise',
  // Leg A is the advance (factoring, docs/money.md): the enterprise pays later, on its bill.
  'split.leg_a.claimed': "Contractors' share advanced",
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
/** The bill is not paid yet (issue 27): filtered by the server across every page. */
const UNPAID = 'OPEN,PARTIALLY_PAID,OVERDUE';

export function SplitsPage({ viewer }: { viewer: Viewer }) {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as SplitStatus | '';
  const unpaidOnly = query.get('unpaid') === '1';
  const search = query.get('q') ?? '';
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  // A search looks through the 100 newest of the status chosen (reference, enterprise, contractor, amount).
  const splits = useResource(
    () =>
      page<Split[]>(
        api.GET('/api/commerce/splits/outgoing', {
          params: { query: { status: status || undefined, collectionStatus: unpaidOnly ? UNPAID : undefined, page: search ? 1 : pageNumber, limit: search ? 100 : 20 } },
        }),
      ),
    [status, unpaidOnly, pageNumber, Boolean(search)],
  );
  const items = splits.data?.data.filter((split) => matches(split, search));
  return (
    <>
      <PageHead
        title="Splits"
        lede="Invoices you sent to enterprises, and how each contractor's share moves."
        actions={
          canSee(viewer, '/splits/new') ? (
            <Link className="btn btn-primary" to="/splits/new">
              New Split
            </Link>
          ) : null
        }
      />
      <section className="panel" aria-labelledby="splits-title">
        <h2 id="splits-title" className="visually-hidden">
          Your Splits
        </h2>
        <div className="filters">
          <div className="field" style={{ maxWidth: '16rem' }}>
            <label htmlFor="split-search">Search</label>
            <input
              id="split-search"
              type="search"
              value={search}
              placeholder="Reference, enterprise, contractor, amount"
              onChange={(e) => setQuery({ q: e.target.value || undefined, page: undefined })}
            />
          </div>
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
              <input type="checkbox" checked={unpaidOnly} onChange={(e) => setQuery({ unpaid: e.target.checked ? '1' : undefined, page: undefined })} /> Only Splits whose bill is
              unpaid
            </label>
          </div>
        </div>
        <ListState
          resource={{ ...splits, data: items }}
          empty={
            unpaidOnly ? (
              <EmptyState title="No unpaid bills">Every funded Split has been paid by its enterprise, or is not billed yet.</EmptyState>
            ) : (
              <EmptyState title={status || search ? 'No Splits match' : 'No Splits yet'}>
                {status || search ? 'Try another status or search.' : 'Create one with "New Split", or from your server with an API key (POST /api/commerce/integration/splits).'}
              </EmptyState>
            )
          }
        >
          {(found) => <SplitTable items={found} />}
        </ListState>
        {search ? null : <Pager meta={splits.data?.meta ?? null} onPage={(p) => setQuery({ page: String(p) })} />}
      </section>
    </>
  );
}

const matches = (split: Split, search: string) => {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const text = [
    split.id,
    split.reference ?? '',
    split.enterpriseCompanyName,
    money(split.totalAmountCents, split.currency),
    ...split.distributions.map((row) => row.contractorDisplayName),
  ]
    .join(' ')
    .toLowerCase();
  return text.includes(needle);
};

/** Payday: the date contractors without an instant payout are paid (net terms after funding). */
export function Payday({ split }: { split: Split }) {
  if (split.paydayAt) return <Time iso={split.paydayAt} />;
  if (split.status === 'REJECTED' || split.status === 'CANCELLED') return <span className="muted">—</span>;
  return <span>{split.enterpriseNetTermsDays} days after approval</span>;
}

function SplitTable({ items }: { items: Split[] }) {
  return (
    <Table
      items={items}
      rowKey={(split) => split.id}
      rowProps={(split) => ({ 'data-split-id': split.id })}
      columns={[
        {
          header: 'Split',
          cell: (split) => (
            <Link to={`/splits/${split.id}`}>
              <strong>{split.reference ?? split.id}</strong>
            </Link>
          ),
        },
        { header: 'Billed to', cell: (split) => split.enterpriseCompanyName },
        { header: 'Created', cell: (split) => <Time iso={split.createdAt} /> },
        { header: 'Payday', cell: (split) => <Payday split={split} /> },
        { header: 'Status', cell: (split) => <StatusBadge status={split.status} /> },
        {
          header: 'Bill',
          cell: (split) => (
            <>
              {split.collectionStatus ? <StatusBadge status={split.collectionStatus} /> : <span className="muted">—</span>}
              {split.approvalBlockedReason ? <div className="small muted">Waits: the enterprise has an overdue bill</div> : null}
            </>
          ),
        },
        { header: 'Total', num: true, cell: (split) => money(split.totalAmountCents, split.currency) },
      ]}
    />
  );
}

export function SplitDetailPage({ id, viewer }: { id: string; viewer: Viewer }) {
  const [asOf, setAsOf] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [settling, setSettling] = useState(false);
  const [deciding, setDeciding] = useState<'approve' | 'reject' | 'cancel' | null>(null);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<PayoutPreview | null>(null);
  const split = useResource(() => data<Split>(api.GET('/api/commerce/splits/{id}', { params: { path: { id }, query: asOf ? { asOf } : {} } })), [id, asOf]);
  const history = useResource(() => data<HistoryEntry[]>(api.GET('/api/commerce/splits/{id}/history', { params: { path: { id } } })), [id]);
  const ledger = useResource(() => data<Posting[]>(api.GET('/api/commerce/splits/{id}/ledger', { params: { path: { id } } })), [id]);
  const reloadAll = () => {
    split.reload();
    history.reload();
    ledger.reload();
  };
  const askPayout = useAction(async (distributionId: string) => {
    setPreview(await data<PayoutPreview>(api.GET('/api/commerce/splits/{id}/distributions/{distributionId}/payout-preview', { params: { path: { id, distributionId } } })));
  });
  const payout = useAction(async (p: PayoutPreview) => {
    const after = await data<Split>(
      api.POST('/api/commerce/integration/splits/{id}/distributions/{distributionId}/payout', { params: { path: { id, distributionId: p.distributionId } } }),
    );
    setPreview(null);
    setNotice(
      waitingFor(after, 'pay_out_now', p.distributionId)
        ? `Payout to ${p.contractorDisplayName} asked for: above your company's two-person threshold, another finance or owner member confirms it.`
        : `Payout to ${p.contractorDisplayName} requested: ${money(p.netAmountCents, p.currency)} on its way.`,
    );
    reloadAll();
  });
  const settle = useAction(async () => {
    const after = await data<Split>(api.POST('/api/commerce/splits/{id}/settle-margin', { params: { path: { id } } }));
    setSettling(false);
    setNotice(
      waitingFor(after, 'settle_margin')
        ? "Margin release asked for: above your company's two-person threshold, another finance or owner member confirms it."
        : 'The margin is settled to your balance.',
    );
    reloadAll();
  });
  const decide = useAction(async (s: Split, what: 'approve' | 'reject' | 'cancel') => {
    if (what === 'approve') await data(api.POST('/api/commerce/splits/{id}/approve', { params: { path: { id } }, body: { revision: s.revision } }));
    if (what === 'reject')
      await data(api.POST('/api/commerce/splits/{id}/reject', { params: { path: { id } }, body: { revision: s.revision, reason: reason.trim() || undefined } }));
    if (what === 'cancel') await data(api.POST('/api/commerce/integration/splits/{id}/cancel', { params: { path: { id } } }));
    setDeciding(null);
    setNotice(
      what === 'approve'
        ? `Approved ${money(s.totalAmountCents, s.currency)} from ${s.smeCompanyName}.`
        : what === 'reject'
          ? `Rejected the Split from ${s.smeCompanyName}.`
          : 'The Split is cancelled; nobody is paid.',
    );
    reloadAll();
  });
  if (split.error && !split.data) return <LoadError error={split.error} retry={split.reload} />;
  if (!split.data) return <Loading />;
  const s = split.data;
  const side = sideOf(viewer, s);
  const back = splitListOf(viewer, s);
  const can = (action: SplitAction) => !asOf && canDoOnSplit(viewer, s, action);
  const closed = s.status === 'REJECTED' || s.status === 'CANCELLED';
  const postings = ledger.data && asOf ? ledger.data.filter((posting) => posting.postedAt <= asOf) : ledger.data;
  return (
    <>
      <p className="small" style={{ margin: '0 0 0.5rem' }}>
        <Link to={back.to}>← {back.label}</Link>
      </p>
      <PageHead
        title={side === 'sme' ? `${money(s.totalAmountCents, s.currency)} to ${s.enterpriseCompanyName}` : `${money(s.totalAmountCents, s.currency)} from ${s.smeCompanyName}`}
        lede={
          <>
            {s.reference ? <strong>{s.reference}</strong> : null} {s.reference ? '· ' : ''}
            <code>{s.id}</code> · created <Time iso={s.createdAt} />
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
      <Notice>{notice}</Notice>
      {s.status === 'REJECTED' ? (
        <div className="alert warn" role="status" data-testid="rejection">
          {s.enterpriseCompanyName} rejected this Split{s.rejectionReason ? `: “${s.rejectionReason}”` : ' without giving a reason.'} Nobody is paid.
        </div>
      ) : null}
      <ErrorAlert error={askPayout.error} />
      {can('approve') || can('reject') || can('revise') || can('cancel') ? (
        <div className="panel row" style={{ justifyContent: 'flex-start' }}>
          {can('approve') ? (
            <Button variant="primary" onClick={() => (decide.setError(null), setDeciding('approve'))}>
              Approve
            </Button>
          ) : null}
          {can('reject') ? (
            <Button variant="danger-ghost" onClick={() => (decide.setError(null), setDeciding('reject'))}>
              Reject
            </Button>
          ) : null}
          {can('revise') ? (
            <Link className="btn btn-secondary" to={`/splits/${s.id}/edit`}>
              Revise
            </Link>
          ) : null}
          {can('cancel') ? (
            <Button variant="danger-ghost" onClick={() => (decide.setError(null), setDeciding('cancel'))}>
              Cancel Split
            </Button>
          ) : null}
        </div>
      ) : null}
      <div className="cards">
        <div className="stat">
          <div className="label">Total billed</div>
          <div className="value">{money(s.totalAmountCents, s.currency)}</div>
          {s.enterpriseCoversFee ? (
            <div className="sub">
              + {money(s.enterpriseFeeAmountCents, s.currency)} fee paid by {s.enterpriseCompanyName}
            </div>
          ) : null}
        </div>
        {side === 'sme' ? (
          <div className="stat">
            <div className="label">Your margin</div>
            <div className="value">{money(s.marginAmountCents, s.currency)}</div>
            <div className="sub" data-testid="margin-status">
              {humanize(s.marginStatus)}
            </div>
            {can('settleMargin') && waitingFor(s, 'settle_margin') ? (
              <SplitSecondPerson
                split={s}
                waiting={waitingFor(s, 'settle_margin')!}
                viewer={viewer}
                label="Confirm the margin release"
                onConfirmed={() => (setNotice('The margin is settled to your balance.'), reloadAll())}
              />
            ) : can('settleMargin') ? (
              <Button small variant="primary" onClick={() => (settle.setError(null), setSettling(true))} style={{ marginTop: '0.5rem' }}>
                Settle margin
              </Button>
            ) : null}
          </div>
        ) : null}
        <div className="stat">
          <div className="label">Payday</div>
          <div className="value" style={{ fontSize: '1.1rem' }} data-testid="payday">
            <Payday split={s} />
          </div>
          <div className="sub">Net {s.enterpriseNetTermsDays} days · instant rows are paid at funding</div>
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
        <h2 id="rows-title">Contractors</h2>
        <Table
          items={s.distributions}
          rowKey={(row) => row.id}
          columns={[
            {
              header: 'Contractor',
              cell: (row) => (
                <>
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
                </>
              ),
            },
            { header: 'Status', cell: (row) => (closed ? <Badge>Not paid</Badge> : <StatusBadge status={row.status} />) },
            { header: 'Amount', num: true, cell: (row) => money(row.amountCents, s.currency) },
            { header: 'Fee', num: true, cell: (row) => money(row.feeAmountCents, s.currency) },
            { header: 'Net', num: true, cell: (row) => money(row.netAmountCents, s.currency) },
          ]}
          actions={(row) => (
            <>
              {can('payOutNow') && row.legBTransferPayoutId === null && waitingFor(s, 'pay_out_now', row.id) ? (
                <SplitSecondPerson
                  split={s}
                  waiting={waitingFor(s, 'pay_out_now', row.id)!}
                  viewer={viewer}
                  label={`Confirm paying out ${row.contractorDisplayName} now`}
                  onConfirmed={() => (setNotice(`Payout to ${row.contractorDisplayName} confirmed: on its way.`), reloadAll())}
                />
              ) : can('payOutNow') && row.status === 'PENDING' && row.legBTransferPayoutId === null ? (
                <Button small busy={askPayout.busy} onClick={() => void askPayout.run(row.id)} aria-label={`Pay out ${row.contractorDisplayName} now`}>
                  Pay out now
                </Button>
              ) : null}
              {!asOf && side === 'sme' && canDo(viewer, 'money') ? <RowActions split={s} row={row} onDone={(message) => (setNotice(message), reloadAll())} /> : null}
            </>
          )}
        />
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
                      <Time iso={entry.occurredAt} /> · by {actorWords(entry.actor, s, viewer.me, entry.actorName)}
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </ListState>
        </section>
        <section className="panel" aria-labelledby="ledger-title">
          <h2 id="ledger-title">Money moved</h2>
          <ListState
            resource={{ ...ledger, data: postings }}
            empty={<EmptyState title="Nothing posted yet">{asOf ? 'Nothing had moved at that moment.' : 'Money moves once the Split is approved.'}</EmptyState>}
          >
            {(items) => (
              <ol style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="ledger">
                {items.map((posting) => (
                  <li key={posting.id} style={{ borderTop: '1px solid var(--line)', padding: '0.6rem 0' }}>
                    <div className="spread">
                      <strong>{postingWords(posting, s)}</strong>
                      <span className="small muted">
                        <Time iso={posting.postedAt} />
                      </span>
                    </div>
                    <ul style={{ listStyle: 'none', margin: '0.35rem 0 0', padding: 0, fontSize: '0.85rem' }}>
                      {posting.entries.map((entry, index) => {
                        const words = entryWords(entry, posting, s);
                        return (
                          <li key={index} className="spread">
                            <span>{words.who}</span>
                            <span className="num">{words.change}</span>
                          </li>
                        );
                      })}
                    </ul>
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
      <Confirm
        open={preview !== null}
        title={preview ? `Pay ${preview.contractorDisplayName} now?` : ''}
        confirmLabel={preview ? `Pay ${money(preview.netAmountCents, preview.currency)} now` : 'Pay now'}
        danger={false}
        busy={payout.busy}
        error={payout.error}
        onConfirm={() => preview && void payout.run(preview)}
        onCancel={() => setPreview(null)}
      >
        {preview ? <PayoutSummary preview={preview} sme={s.smeCompanyName} /> : null}
      </Confirm>
      <Confirm
        open={deciding === 'approve'}
        title={`Approve ${money(s.totalAmountCents, s.currency)} from ${s.smeCompanyName}?`}
        confirmLabel={`Approve ${money(s.totalAmountCents, s.currency)}`}
        danger={false}
        busy={decide.busy}
        error={decide.error}
        onConfirm={() => void decide.run(s, 'approve')}
        onCancel={() => setDeciding(null)}
      >
        <ApprovalSummary split={s} />
      </Confirm>
      <Confirm
        open={deciding === 'reject'}
        title="Reject this Split?"
        body={`${s.smeCompanyName} is told it was rejected, with your reason. Nobody is paid.`}
        confirmLabel="Reject Split"
        busy={decide.busy}
        error={decide.error}
        onConfirm={() => void decide.run(s, 'reject')}
        onCancel={() => setDeciding(null)}
      >
        <div className="field" style={{ marginTop: '1rem' }}>
          <label htmlFor="detail-reject-reason">Reason (sent to the supplier)</label>
          <textarea id="detail-reject-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="The PO number is missing." />
        </div>
      </Confirm>
      <Confirm
        open={deciding === 'cancel'}
        title="Cancel this Split?"
        body={`${s.enterpriseCompanyName} is no longer asked to pay ${money(s.totalAmountCents, s.currency)}; nobody is paid. This cannot be undone.`}
        confirmLabel="Cancel Split"
        busy={decide.busy}
        error={decide.error}
        onConfirm={() => void decide.run(s, 'cancel')}
        onCancel={() => setDeciding(null)}
      />
    </>
  );
}

/** What approving commits the enterprise to, and who receives what (shown in the dialog that asks). */
export function ApprovalSummary({ split: s }: { split: Split }) {
  const owed = BigInt(s.totalAmountCents) + (s.enterpriseCoversFee ? BigInt(s.enterpriseFeeAmountCents) : 0n);
  return (
    <div data-testid="approval-summary">
      <p>
        You commit to pay <strong>{money(String(owed), s.currency)}</strong>
        {s.enterpriseCoversFee ? ` (${money(s.totalAmountCents, s.currency)} + ${money(s.enterpriseFeeAmountCents, s.currency)} fee you cover)` : ''} on net{' '}
        {s.enterpriseNetTermsDays} days. Paysplit pays {s.smeCompanyName} now; its contractors receive:
      </p>
      <ul className="small" style={{ margin: '0 0 0.5rem', paddingLeft: '1.2rem' }}>
        {s.distributions.map((row) => (
          <li key={row.id}>
            {row.contractorDisplayName}: {money(row.amountCents, s.currency)}
          </li>
        ))}
      </ul>
      {s.marginAmountCents !== '0' ? (
        <p className="small muted">
          {s.smeCompanyName} keeps {money(s.marginAmountCents, s.currency)} as its margin.
        </p>
      ) : null}
    </div>
  );
}

function PayoutSummary({ preview: p, sme }: { preview: PayoutPreview; sme: string }) {
  const fee = money(p.feeAmountCents, p.currency);
  return (
    <div data-testid="payout-preview">
      <dl className="facts amounts">
        <dt>Row amount</dt>
        <dd>{money(p.amountCents, p.currency)}</dd>
        <dt>Early-payout fee</dt>
        <dd>{fee}</dd>
        <dt>{p.contractorDisplayName} receives now</dt>
        <dd>
          <strong>{money(p.netAmountCents, p.currency)}</strong>
        </dd>
      </dl>
      <p className="small muted" style={{ margin: '0.5rem 0 0' }}>
        {p.feePaidBy === 'contractor'
          ? `The fee is deducted from ${p.contractorDisplayName}'s share; ${sme}'s balance pays the row's amount.`
          : `${sme} pays the ${fee} fee on top${p.feeFromMarginCents !== '0' ? ` (${money(p.feeFromMarginCents, p.currency)} of it from the held margin)` : ''}.`}
      </p>
    </div>
  );
}
