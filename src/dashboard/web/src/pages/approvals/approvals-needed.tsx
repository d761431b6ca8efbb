import type { components } from '../../api/schema';
import type { Split } from '../../api/types';
import { Badge } from '../../components/ui';
import type { Viewer } from '../../lib/access';

type Member = components['schemas']['MemberDto'];

/** Who approved, by name: the viewer, a member's email, or the id when the member is gone. */
export const nameOf = (approvedBy: string, viewer: Viewer, members: readonly Member[]) => {
  if (approvedBy === `user:${viewer.me.userId}`) return 'you';
  if (approvedBy === 'auto-accept') return 'auto-accept';
  return members.find((member) => `user:${member.userId}` === approvedBy)?.email ?? approvedBy;
};

/** Has the viewer approved this revision already (a second approval must come from someone else)? */
export const approvedByViewer = (split: Split, viewer: Viewer) => split.approvals.some((approval) => approval.approvedBy === `user:${viewer.me.userId}`);

/**
 * Issue 30, the approvals inbox: how many approvals a pending Split still needs and from whom (a finance, admin or
 * owner member who has not approved this revision and is not of the SME), and who approved so far.
 */
export function ApprovalsNeeded({ split, viewer, members }: { split: Split; viewer: Viewer; members: readonly Member[] }) {
  const missing = Math.max(split.approvalsRequired - split.approvals.length, 0);
  const approvers = members.filter((member) => ['owner', 'admin', 'finance'].includes(member.role) && !split.approvals.some((a) => a.approvedBy === `user:${member.userId}`));
  return (
    <div className="approvals-needed" data-testid={`approvals-needed-${split.id}`}>
      <Badge tone={missing > 0 ? 'warn' : 'good'}>
        {split.approvals.length} of {split.approvalsRequired} approval{split.approvalsRequired === 1 ? '' : 's'}
      </Badge>
      {split.approvals.length > 0 ? <div className="small">Approved by {split.approvals.map((a) => nameOf(a.approvedBy, viewer, members)).join(', ')}</div> : null}
      {missing > 0 ? (
        <div className="small muted">
          Needs {missing === 1 ? 'one more' : `${missing} more`} from{' '}
          {approvers.length > 0 ? approvers.map((m) => (m.userId === viewer.me.userId ? 'you' : m.email)).join(', ') : 'a finance, admin or owner member'}
          {split.approvals.length > 0 ? ' (not the same person twice)' : ''}
        </div>
      ) : null}
    </div>
  );
}
