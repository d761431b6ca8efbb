import { useState } from 'react';
import { api, ApiError, data } from '../api/client';
import type { Company, Split, SplitSetting } from '../api/types';
import { Button, Confirm, EmptyState, ErrorAlert, ListState, PageHead, StatusBadge, useAction } from '../components/ui';
import { money } from '../lib/format';
import { Link } from '../lib/router';
import { useResource } from '../lib/use-resource';

export function ApprovalsPage() {
  const incoming = useResource(() => data<Split[]>(api.GET('/api/commerce/splits/incoming')));
  const settings = useResource(() => data<SplitSetting[]>(api.GET('/api/commerce/split-settings')));
  const [rejecting, setRejecting] = useState<Split | null>(null);
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
    const done = await decide(split, () => data(api.POST('/api/commerce/splits/{id}/approve', { params: { path: { id: split.id } }, body: { revision: split.revision } })));
    if (!done) return;
    setNotice(`Approved ${money(split.totalAmountCents, split.currency)} from ${split.smeCompanyName}.`);
    incoming.reload();
  });
  const reject = useAction(async (split: Split) => {
    const done = await decide(split, () =>
      data(api.POST('/api/commerce/splits/{id}/reject', { params: { path: { id: split.id } }, body: { revision: split.revision, reason: reason.trim() || undefined } })),
    );
    setRejecting(null);
    if (!done) return;
    setNotice(`Rejected the Split from ${split.smeCompanyName}.`);
    setReason('');
    incoming.reload();
  });
  const inbox = incoming.data?.filter((split) => split.status === 'PENDING_APPROVAL');
  const decided = incoming.data?.filter((split) => split.status !== 'PENDING_APPROVAL');
  // Every SME that billed us, with its settings (defaults when never set).
  const smes = new Map<string, SplitSetting>();
  for (const split of incoming.data ?? [])
    smes.set(split.smeCompanyId, { smeCompanyId: split.smeCompanyId, smeCompanyName: split.smeCompanyName, autoAccept: false, coverFees: false });
  for (const setting of settings.data ?? []) smes.set(setting.smeCompanyId, setting);
  return (
    <>
      <PageHead title="Approvals" lede="Splits your suppliers billed you. Approving one commits you to pay it on your net terms." />
      {notice ? (
        <div className="alert success" role="status">
          {notice}
        </div>
      ) : null}
      <ErrorAlert error={approve.error} />
      {changed ? (
        <ChangedSinceReview
          changed={changed}
          busy={approve.busy}
          onApprove={() => void approve.run(changed.current)}
          onReject={() => (reject.setError(null), setRejecting(changed.current))}
          onClose={() => setChanged(null)}
        />
      ) : null}
      <section className="panel" aria-labelledby="inbox-title">
        <h2 id="inbox-title">Waiting for you</h2>
        <ListState resource={{ ...incoming, data: inbox }} empty={<EmptyState title="Inbox zero">No Split is waiting for your approval.</EmptyState>}>
          {(items) => (
            <div className="table-wrap">
              <table className="responsive">
                <thead>
                  <tr>
                    <th>From</th>
                    <th>Split</th>
                    <th className="num">Total</th>
                    <th className="num">Rows</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((split) => (
                    <tr key={split.id} data-split-id={split.id}>
                      <td data-label="From">
                        <strong>{split.smeCompanyName}</strong>
                      </td>
                      <td data-label="Split">
                        <Link to={`/splits/${split.id}`}>
                          <code>{split.id}</code>
                        </Link>
                      </td>
                      <td data-label="Total" className="num">
                        {money(split.totalAmountCents, split.currency)}
                      </td>
                      <td data-label="Rows" className="num">
                        {split.distributions.length}
                      </td>
                      <td className="actions">
                        <span className="row" style={{ justifyContent: 'flex-end' }}>
                          <Button
                            small
                            variant="primary"
                            busy={approve.busy}
                            onClick={() => void approve.run(split)}
                            aria-label={`Approve ${split.id} from ${split.smeCompanyName}`}
                          >
                            Approve
                          </Button>
                          <Button
                            small
                            variant="danger-ghost"
                            onClick={() => (reject.setError(null), setRejecting(split))}
                            aria-label={`Reject ${split.id} from ${split.smeCompanyName}`}
                          >
                            Reject
                          </Button>
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListState>
      </section>
      {decided && decided.length > 0 ? (
        <section className="panel" aria-labelledby="decided-title">
          <h2 id="decided-title">Decided</h2>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {decided.map((split) => (
              <li key={split.id} className="spread" style={{ borderTop: '1px solid var(--line)', padding: '0.5rem 0' }}>
                <span>
                  {split.smeCompanyName} · <Link to={`/splits/${split.id}`}>{money(split.totalAmountCents, split.currency)}</Link>
                </span>
                <StatusBadge status={split.status} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="grid-2">
        <SupplierSettings smes={[...smes.values()]} loading={!incoming.data || !settings.data} error={settings.error} onSaved={settings.reload} />
        <NetTerms />
      </div>
      <Confirm
        open={rejecting !== null}
        title="Reject this Split?"
        body={rejecting ? `${rejecting.smeCompanyName} is told it was rejected, with your reason. Nobody is paid.` : ''}
        confirmLabel="Reject Split"
        busy={reject.busy}
        error={reject.error}
        onConfirm={() => rejecting && void reject.run(rejecting)}
        onCancel={() => setRejecting(null)}
      >
        <div className="field" style={{ marginTop: '1rem' }}>
          <label htmlFor="reject-reason">Reason (sent to the supplier)</label>
          <textarea id="reject-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="The PO number is missing." />
        </div>
      </Confirm>
    </>
  );
}

interface Changed {
  /** The Split as the person last saw it when deciding. */
  reviewed: Split;
  current: Split;
}

/** What the supplier changed between the person's review and their decision: totals, fee and rows, old beside new. */
function ChangedSinceReview({
  changed,
  busy,
  onApprove,
  onReject,
  onClose,
}: {
  changed: Changed;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
  onClose: () => void;
}) {
  const { reviewed, current } = changed;
  const amount = (split: Split, cents: string) => money(cents, split.currency);
  const facts: [string, string, string][] = [
    ['Total', amount(reviewed, reviewed.totalAmountCents), amount(current, current.totalAmountCents)],
    ['Supplier margin', amount(reviewed, reviewed.marginAmountCents), amount(current, current.marginAmountCents)],
    ['Fee you cover', amount(reviewed, reviewed.enterpriseFeeAmountCents), amount(current, current.enterpriseFeeAmountCents)],
    ['Rows', String(reviewed.distributions.length), String(current.distributions.length)],
  ];
  const rows = (split: Split) => (
    <ul className="small">
      {split.distributions.map((row) => (
        <li key={row.id}>
          {row.contractorDisplayName}: {amount(split, row.amountCents)}
        </li>
      ))}
    </ul>
  );
  const pending = current.status === 'PENDING_APPROVAL';
  return (
    <section className="alert warn" role="alert" aria-labelledby="changed-title" data-changed-split-id={current.id}>
      <h2 id="changed-title" style={{ fontSize: '1.05rem', margin: '0 0 0.35rem' }}>
        This Split changed since you reviewed it
      </h2>
      <p style={{ margin: '0 0 0.6rem' }}>
        {current.smeCompanyName} revised it after you opened it (revision {reviewed.revision} &rarr; {current.revision}). Nothing was approved or rejected.
        {pending ? ' Review the changes, then decide again.' : ` It is now ${current.status}.`}
      </p>
      <div className="table-wrap">
        <table className="compare" aria-label="What changed">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Field</span>
              </th>
              <th scope="col" className="num">
                You reviewed
              </th>
              <th scope="col" className="num">
                Now
              </th>
            </tr>
          </thead>
          <tbody>
            {facts.map(([label, before, after]) => (
              <tr key={label} data-changed={before !== after || undefined}>
                <th scope="row">{label}</th>
                <td className="num">{before}</td>
                <td className="num">{before === after ? after : <strong>{after}</strong>}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">Paid to</th>
              <td>{rows(reviewed)}</td>
              <td>{rows(current)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <span className="row" style={{ marginTop: '0.75rem' }}>
        {pending ? (
          <>
            <Button small variant="primary" busy={busy} onClick={onApprove}>
              Approve {money(current.totalAmountCents, current.currency)}
            </Button>
            <Button small variant="danger-ghost" onClick={onReject}>
              Reject
            </Button>
          </>
        ) : null}
        <Button small variant="ghost" onClick={onClose}>
          Close
        </Button>
      </span>
    </section>
  );
}

function SupplierSettings({ smes: stored, loading, error, onSaved }: { smes: SplitSetting[]; loading: boolean; error: Error | undefined; onSaved: () => void }) {
  // What the person just chose shows at once; a failed save puts the stored value back.
  const [chosen, setChosen] = useState<Record<string, SplitSetting>>({});
  const save = useAction(async (setting: SplitSetting) => {
    setChosen((current) => ({ ...current, [setting.smeCompanyId]: setting }));
    try {
      await data(
        api.PUT('/api/commerce/split-settings/sme/{smeCompanyId}', {
          params: { path: { smeCompanyId: setting.smeCompanyId } },
          body: { autoAccept: setting.autoAccept, coverFees: setting.coverFees },
        }),
      );
    } catch (e) {
      setChosen(({ [setting.smeCompanyId]: _dropped, ...rest }) => rest);
      throw e;
    }
    onSaved();
  });
  const smes = stored.map((setting) => chosen[setting.smeCompanyId] ?? setting);
  return (
    <section className="panel" aria-labelledby="suppliers-title">
      <h2 id="suppliers-title">Suppliers</h2>
      <p className="small muted" style={{ marginTop: 0 }}>
        Auto-accept approves a supplier&rsquo;s Splits as they arrive; cover fees makes you pay the transfer fee.
      </p>
      <ErrorAlert error={save.error ?? (error && !loading ? error : null)} />
      <ListState
        resource={{ data: loading ? undefined : smes, error: undefined, loading, reload: onSaved }}
        empty={<EmptyState title="No suppliers yet">Suppliers appear once one bills you.</EmptyState>}
      >
        {(items) => (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((setting) => (
              <li key={setting.smeCompanyId} style={{ borderTop: '1px solid var(--line)', padding: '0.6rem 0' }}>
                <strong>{setting.smeCompanyName}</strong>
                <div className="checks" style={{ marginTop: '0.3rem' }}>
                  <label className="check">
                    <input type="checkbox" checked={setting.autoAccept} disabled={save.busy} onChange={(e) => void save.run({ ...setting, autoAccept: e.target.checked })} />
                    Auto-accept
                  </label>
                  <label className="check">
                    <input type="checkbox" checked={setting.coverFees} disabled={save.busy} onChange={(e) => void save.run({ ...setting, coverFees: e.target.checked })} />
                    Cover fees
                  </label>
                </div>
              </li>
            ))}
          </ul>
        )}
      </ListState>
    </section>
  );
}

function NetTerms() {
  const company = useResource(() => data<Company>(api.GET('/api/commerce/company')));
  const [days, setDays] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await data(api.PATCH('/api/commerce/company', { body: { netTermsDays: Number(days) } }));
    setSaved(true);
    company.reload();
  });
  const fields = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const value = days ?? String(company.data?.netTermsDays ?? '');
  return (
    <section className="panel" aria-labelledby="terms-title">
      <h2 id="terms-title">Net terms</h2>
      <p className="small muted" style={{ marginTop: 0 }}>
        How many days after approval you pay a Split.
      </p>
      <form
        className="row"
        style={{ alignItems: 'flex-end' }}
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void save.run();
        }}
      >
        <div className="field" style={{ flex: '0 1 10rem' }}>
          <label htmlFor="net-terms">Days</label>
          <input
            id="net-terms"
            type="number"
            min={0}
            max={120}
            inputMode="numeric"
            value={value}
            onChange={(e) => setDays(e.target.value)}
            aria-invalid={Boolean(fields.netTermsDays)}
            aria-describedby={fields.netTermsDays ? 'net-terms-error' : undefined}
          />
        </div>
        <Button type="submit" busy={save.busy} disabled={!company.data}>
          Save
        </Button>
      </form>
      {fields.netTermsDays ? (
        <div className="field-error" id="net-terms-error">
          {fields.netTermsDays}
        </div>
      ) : (
        <ErrorAlert error={save.error} />
      )}
      {saved ? (
        <p className="small" role="status" style={{ color: 'var(--good)' }}>
          Saved: new Splits use net {company.data?.netTermsDays} days.
        </p>
      ) : null}
    </section>
  );
}
