import { api, data } from '../../api/client';
import type { PayoutSession } from '../../api/types';
import { Badge, Button, ErrorAlert, useAction } from '../../components/ui';
import { canDo, type Viewer } from '../../lib/access';

/**
 * Issue 30, the two-person rule on the company's own payouts: a session above its threshold waits for a second
 * finance, admin or owner member. The one who started it is told it waits for someone else; another such member is
 * shown "Confirm" (`POST .../sessions/:id/confirm`). Nothing for a session that needs no second person.
 */
export function SecondPerson({ session, viewer, onConfirmed }: { session: PayoutSession; viewer: Viewer; onConfirmed: () => void }) {
  const confirm = useAction(async () => {
    await data(api.POST('/api/commerce/integration/payout-embed/sessions/{id}/confirm', { params: { path: { id: session.id } } }));
    onConfirmed();
  });
  if (!session.awaitingConfirmation) return null;
  const mine = session.startedBy === `user:${viewer.me.userId}`;
  const open = session.status === 'created';
  return (
    <div className="small" data-testid={`second-person-${session.id}`}>
      <Badge tone="warn">Needs a second person</Badge>{' '}
      {!open ? null : mine || !canDo(viewer, 'money') ? (
        <span className="muted">{mine ? 'You started it: another finance or owner member confirms it.' : 'A finance or owner member confirms it.'}</span>
      ) : (
        <Button small variant="primary" busy={confirm.busy} onClick={() => void confirm.run()} aria-label={`Confirm the payout to ${session.recipientEmail}`}>
          Confirm
        </Button>
      )}
      <ErrorAlert error={confirm.error} />
    </div>
  );
}
