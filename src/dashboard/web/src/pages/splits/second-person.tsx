import { api, data } from '../../api/client';
import type { Split } from '../../api/types';
import { Badge, Button, ErrorAlert, useAction } from '../../components/ui';
import { canDo, type Viewer } from '../../lib/access';

type Waiting = NonNullable<Split['awaitingSecondPerson']>[number];

/** What of this Split waits for a second member: the margin's release (rosterEntryId null) or one row's pay-out-now. */
export const waitingFor = (split: Split, action: Waiting['action'], rosterEntryId: string | null = null): Waiting | null =>
  (split.awaitingSecondPerson ?? []).find((w) => w.action === action && w.rosterEntryId === rosterEntryId) ?? null;

/**
 * Issue 30, the two-person rule on the SME's own Split money (as pages/payouts/second-person.tsx for Payout Embed):
 * a pay-out-now or margin release above the company's threshold waits for a second finance, admin or owner member.
 * The one who asked is told it waits for someone else; another such member is shown "Confirm", which moves the money.
 */
export function SplitSecondPerson({ split, waiting, viewer, label, onConfirmed }: { split: Split; waiting: Waiting; viewer: Viewer; label: string; onConfirmed: () => void }) {
  const confirm = useAction(async () => {
    if (waiting.action === 'settle_margin') await data(api.POST('/api/commerce/splits/{id}/settle-margin/confirm', { params: { path: { id: split.id } } }));
    else
      await data(
        api.POST('/api/commerce/integration/splits/{id}/distributions/{distributionId}/payout/confirm', {
          params: { path: { id: split.id, distributionId: waiting.rosterEntryId! } },
        }),
      );
    onConfirmed();
  });
  const mine = waiting.requestedBy === `user:${viewer.me.userId}`;
  return (
    <div className="small" style={{ whiteSpace: 'normal', maxWidth: '18rem' }} data-testid={`second-person-${waiting.rosterEntryId ?? 'margin'}`}>
      <Badge tone="warn">Needs a second person</Badge>{' '}
      {mine || !canDo(viewer, 'money') ? (
        <span className="muted">{mine ? 'You asked; another member confirms it.' : 'A finance or owner member confirms it.'}</span>
      ) : (
        <Button small variant="primary" busy={confirm.busy} onClick={() => void confirm.run()} aria-label={label}>
          Confirm
        </Button>
      )}
      <ErrorAlert error={confirm.error} />
    </div>
  );
}
