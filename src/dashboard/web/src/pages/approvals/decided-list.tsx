import type { components } from '../../api/schema';
import type { Invoice, Split } from '../../api/types';
import { ItemList } from '../../components/data-list';
import { StatusBadge } from '../../components/ui';
import type { Viewer } from '../../lib/access';
import { money, Time } from '../../lib/format';
import { Link } from '../../lib/router';
import { nameOf } from './approvals-needed';

type Member = components['schemas']['MemberDto'];

/**
 * When a decided Split was decided, and by whom where the read model says: an approved Split's last approval
 * (by member, or auto-accept); a rejected or cancelled one ends there, so its last change is that decision (the
 * view does not name who rejected it).
 */
function decisionOf(split: Split, viewer: Viewer, members: readonly Member[]): { verb: string; at: string | null; by: string | null } {
  if (split.status === 'REJECTED') return { verb: 'Rejected', at: split.updatedAt, by: null };
  if (split.status === 'CANCELLED') return { verb: 'Cancelled', at: split.updatedAt, by: 'the supplier' };
  const last = [...split.approvals].sort((a, b) => a.approvedAt.localeCompare(b.approvedAt)).pop();
  return { verb: 'Approved', at: last?.approvedAt ?? null, by: last ? nameOf(last.approvedBy, viewer, members) : null };
}

/**
 * Issue 29: the Approvals page's Decided list tells Splits apart: its reference, who decided and when, beside the
 * supplier, the amount and the status. The reference is the SME's own (its invoice number) where the API gives it
 * (the SME's reference stays the SME's: docs/decisions.md), else the payment reference of the bill the Split
 * became, which is what the enterprise pays against, else the Split's id.
 */
export function DecidedList({ decided, bills, viewer, members }: { decided: Split[]; bills: readonly Invoice[]; viewer: Viewer; members: readonly Member[] }) {
  const billOf = new Map(bills.map((bill) => [bill.splitId, bill]));
  return (
    <ItemList items={decided} itemKey={(split) => split.id} itemProps={(split) => ({ className: 'spread', 'data-split-id': split.id })} itemStyle={{ padding: '0.5rem 0' }}>
      {(split) => {
        const decision = decisionOf(split, viewer, members);
        const bill = billOf.get(split.id);
        return (
          <>
            <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              <Link to={`/splits/${split.id}`}>
                <strong>{split.reference ?? bill?.paymentReference ?? split.id}</strong>
              </Link>{' '}
              · {split.smeCompanyName} · <span className="nowrap">{money(split.totalAmountCents, split.currency)}</span>
              <span className="small muted" style={{ display: 'block' }} data-testid="decision">
                {decision.verb}
                {decision.at ? (
                  <>
                    {' '}
                    <Time iso={decision.at} />
                  </>
                ) : null}
                {decision.by ? ` by ${decision.by}` : ''}
                {bill && split.reference ? ` · bill ${bill.paymentReference}` : ''}
                {split.status === 'REJECTED' && split.rejectionReason ? ` · “${split.rejectionReason}”` : ''}
              </span>
            </span>
            <StatusBadge status={split.status} />
          </>
        );
      }}
    </ItemList>
  );
}
