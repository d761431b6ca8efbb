import type { Split } from '../../api/types';
import { Button } from '../../components/ui';
import { money } from '../../lib/format';

export interface Changed {
  /** The Split as the person last saw it when deciding. */
  reviewed: Split;
  current: Split;
}

/** What the supplier changed between the person's review and their decision: totals, fee and rows, old beside new. */
export function ChangedSinceReview({
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
