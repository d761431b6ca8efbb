import { useState } from 'react';
import { api, ApiError, data } from '../api/client';
import type { Invoice, Me, Split, SplitSetting } from '../api/types';
import { BillingIds } from './approvals/billing-ids';
import { DataTable, Notice, useConfirmedAction } from '../components/data-list';
import { Button, Confirm, EmptyState, ErrorAlert, PageHead, useAction } from '../components/ui';
import { money, Time } from '../lib/format';
import { ApprovalSummary, Payday } from './splits';
import { Link } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { ChangedSinceReview, type Changed } from './approvals/changed-since-review';
import { NetTerms } from './approvals/net-terms';
import { SupplierSettings } from './approvals/supplier-settings';
import { canDo, type Viewer } from '../lib/access';
import { ApprovalsNeeded, approvedByViewer } from './approvals/approvals-needed';
import { DecidedList } from './approvals/decided-list';
import type { components } from '../api/schema';

export function ApprovalsPage({ me, viewer }: { me: Me; viewer: Viewer }) {
  const incoming = useResource(() => data<Split[]>(api.GET('/api/commerce/splits/incoming')));
  // Issue 30: who may still approve, by name; buttons only for members who may decide.
  const members = useResource(() => data<components['schemas']['MemberDto'][]>(api.GET('/api/commerce/members')));
  const mayDecide = canDo(viewer, 'money');
  const settings = useResource(() => data<SplitSetting[]>(api.GET('/api/commerce/split-settings')));
  // Issue 29: a decided Split's bill gives the enterprise its payment reference (DecidedList). Each is read
  // by id: the bill list is soonest due first, so a long one would not reach the newest Splits' bills.
  const billIds = (incoming.data ?? []).flatMap((split) => (split.invoiceId ? [split.invoiceId] : []));
  const bills = useResource(() => Promise.all(billIds.map((id) => data<Invoice>(api.GET('/api/commerce/invoices/{id}', { params: { path: { id } } })))), [billIds.join()]);
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [changed, setChanged] = useState<Changed | null>(null);
  /**
   * A decision names the revision the person saw (docs/api.md#approving-what-was-reviewed). When the supplier
   * revised the Split meanwhile, nothing was decided: show what changed and let them review it again.
   */
  const decide = async (split: Split, call: () => Promise<unknown>): Promise<boolean> => {
    try {
      await call();
      setChanged(null);
      return true;
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'SPLIT_CHANGED_SINCE_REVIEW')) throw e;
      const current = await data<Split>(api.GET('/api/commerce/splits/{id}', { params: { path: { id: split.id } } }));
      setNotice(null);
      setChanged({ reviewed: split, current });
      incoming.reload();
      return false;
    }
  };
  const approve = useAction(async (split: Split) => {
    setApproving(null);
    const done = await decide(split, () => data(api.POST('/api/commerce/splits/{id}/approve', { params: { path: { id: split.id } }, body: { revision: split.revision } })));
    if (!done) return;
    setNotice(`Approved ${money(split.totalAmountCents, split.currency)} from ${split.smeCompanyName}.`);
    incoming.reload();
    bills.reload();
  });
  // Approving moves money: the list's Approve asks first, showing what is committed and who receives it (issue 29).
  const [approving, setApproving] = useState<Split | null>(null);
  const reject = useConfirmedAction(async (split: Split) => {
    const done = await decide(split, () =>
      data(api.POST('/api/commerce/splits/{id}/reject', { params: { path: { id: split.id } }, body: { revision: split.revision, reason: reason.trim() || undefined } })),
    );
    if (!done) return;
    setNotice(`Rejected the Split from ${split.smeCompanyName}.`);
    setReason('');
    incoming.reload();
  });
  const decided = incoming.data?.filter((split) => split.status !== 'PENDING_APPROVAL');
  // Every SME that billed us, with its settings (defaults when never set).
  const smes = new Map<string, SplitSetting>();
  for (const split of incoming.data ?? [])
    smes.set(split.smeCompanyId, { smeCompanyId: split.smeCompanyId, smeCompanyName: split.smeCompanyName, autoAccept: false, coverFees: false });
  for (const setting of settings.data ?? []) smes.set(setting.smeCompanyId, setting);
  return (
    <>
      <PageHead title="Approvals" lede="Splits your suppliers billed you. Approving one commits you to pay it on your net terms." />
      <Notice>{notice}</Notice>
      <ErrorAlert error={approve.error} />
      {changed ? (
        <ChangedSinceReview
          changed={changed}
          busy={approve.busy}
          onApprove={() => void approve.run(changed.current)}
          onReject={() => reject.ask(changed.current)}
          onClose={() => setChanged(null)}
        />
      ) : null}
      <section className="panel" aria-labelledby="inbox-title">
        <h2 id="inbox-title">Waiting for you</h2>
        <DataTable
          resource={incoming}
          select={(all) => all.filter((split) => split.status === 'PENDING_APPROVAL')}
          empty={<EmptyState title="Inbox zero">No Split is waiting for your approval.</EmptyState>}
          rowKey={(split) => split.id}
          rowProps={(split) => ({ 'data-split-id': split.id })}
          columns={[
            { header: 'From', cell: (split) => <strong className="nowrap">{split.smeCompanyName}</strong> },
            {
              header: 'Split',
              cell: (split) => (
                <Link to={`/splits/${split.id}`}>
                  <code>{split.id}</code>
                </Link>
              ),
            },
            { header: 'Received', cell: (split) => <Time iso={split.createdAt} /> },
            { header: 'Payday', cell: (split) => <Payday split={split} /> },
            { header: 'Total', num: true, cell: (split) => <span className="nowrap">{money(split.totalAmountCents, split.currency)}</span> },
            { header: 'Rows', num: true, cell: (split) => split.distributions.length },
            { header: 'Approvals', cell: (split) => <ApprovalsNeeded split={split} viewer={viewer} members={members.data ?? []} /> },
          ]}
          actions={(split) => (
            <>
              {!mayDecide || approvedByViewer(split, viewer) ? null : (
                <Button
                  small
                  variant="primary"
                  busy={approve.busy}
                  onClick={() => (approve.setError(null), setApproving(split))}
                  aria-label={`Approve ${split.id} from ${split.smeCompanyName}`}
                >
                  Approve
                </Button>
              )}
              {mayDecide ? (
                <Button small variant="danger-ghost" onClick={() => reject.ask(split)} aria-label={`Reject ${split.id} from ${split.smeCompanyName}`}>
                  Reject
                </Button>
              ) : null}
            </>
          )}
        />
      </section>
      {decided && decided.length > 0 ? (
        <section className="panel" aria-labelledby="decided-title">
          <h2 id="decided-title">Decided</h2>
          <DecidedList decided={decided} bills={bills.data ?? []} viewer={viewer} members={members.data ?? []} />
        </section>
      ) : null}
      {canDo(viewer, 'manage') ? (
        <div className="grid-2">
          <SupplierSettings smes={[...smes.values()]} loading={!incoming.data || !settings.data} error={settings.error} onSaved={settings.reload} />
          <NetTerms />
        </div>
      ) : null}
      <BillingIds me={me} />
      <Confirm
        open={approving !== null}
        title={approving ? `Approve ${money(approving.totalAmountCents, approving.currency)} from ${approving.smeCompanyName}?` : ''}
        confirmLabel={approving ? `Approve ${money(approving.totalAmountCents, approving.currency)}` : 'Approve'}
        danger={false}
        busy={approve.busy}
        onConfirm={() => approving && void approve.run(approving)}
        onCancel={() => setApproving(null)}
      >
        {approving ? <ApprovalSummary split={approving} /> : null}
      </Confirm>
      <Confirm
        {...reject.dialog}
        title="Reject this Split?"
        body={reject.subject ? `${reject.subject.smeCompanyName} is told it was rejected, with your reason. Nobody is paid.` : ''}
        confirmLabel="Reject Split"
      >
        <div className="field" style={{ marginTop: '1rem' }}>
          <label htmlFor="reject-reason">Reason (sent to the supplier)</label>
          <textarea id="reject-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="The PO number is missing." />
        </div>
      </Confirm>
    </>
  );
}
