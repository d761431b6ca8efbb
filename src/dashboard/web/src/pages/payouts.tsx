import { useState } from 'react';
import { api, data, page } from '../api/client';
import type { Balance, PayoutSession } from '../api/types';
import { DataTable, useConfirmedAction } from '../components/data-list';
import { Button, Confirm, CopyButton, EmptyState, ErrorAlert, PageHead, StatusBadge } from '../components/ui';
import { money, Time } from '../lib/format';
import { useResource } from '../lib/use-resource';
import { CreateSession, SESSIONS } from './payouts/create-session';
import { canDo, type Viewer } from '../lib/access';
import { SecondPerson } from './payouts/second-person';

export const embedSnippet = (session: PayoutSession) =>
  `<iframe src="${session.embedUrl ?? ''}" title="Claim your payout" style="width:100%;max-width:480px;height:560px;border:0"></iframe>`;

const OPEN = new Set(['created', 'claimed']);

export function PayoutsPage({ viewer }: { viewer: Viewer }) {
  const mayPay = canDo(viewer, 'money');
  const [pageNumber, setPageNumber] = useState(1);
  const sessions = useResource(() => page<PayoutSession[]>(api.GET(SESSIONS, { params: { query: { page: pageNumber, limit: 20 } } })), [pageNumber]);
  const [created, setCreated] = useState<PayoutSession | null>(null);
  const balances = useResource(() => data<Balance[]>(api.GET('/api/commerce/balance')));
  const cancel = useConfirmedAction(async (session: PayoutSession) => {
    await data(api.POST('/api/commerce/integration/payout-embed/sessions/{id}/cancel', { params: { path: { id: session.id } } }));
    sessions.reload();
    balances.reload();
  });
  const cancelling = cancel.subject;
  return (
    <>
      <PageHead title="Payouts" lede="Payout Embed: send money to someone by email; they claim it in a frame on your site and name their wallet." />
      <div className="cards" data-testid="payout-balances">
        {(balances.data ?? []).map((balance) => (
          <div className="stat" key={balance.currency}>
            <div className="label">Available · {balance.currency}</div>
            <div className="value">{money(balance.availableCents, balance.currency)}</div>
            <div className="sub">Reserved for open payouts {money(balance.reservedCents, balance.currency)}</div>
          </div>
        ))}
      </div>
      {mayPay ? (
        <CreateSession
          onCreated={(session) => {
            setCreated(session);
            sessions.reload();
            balances.reload();
          }}
        />
      ) : null}
      {created ? (
        <section className="panel" aria-labelledby="created-session-title">
          <h2 id="created-session-title">Embed this payout</h2>
          <p className="muted" style={{ marginTop: 0 }}>
            Put the frame on a page of an allowed origin, or send the link itself (by email or chat): opened directly, the page works the same. Both carry the session&rsquo;s
            credential after <code>#t=</code>: treat them like a password.
          </p>
          <h3 className="small" style={{ margin: '0.75rem 0 0.35rem' }}>
            Frame on your site
          </h3>
          <div className="secret-box">
            <code data-testid="payout-snippet">{embedSnippet(created)}</code>
            <CopyButton text={embedSnippet(created)} label="Copy snippet" />
          </div>
          <h3 className="small" style={{ margin: '0.75rem 0 0.35rem' }}>
            Link to send
          </h3>
          <div className="secret-box">
            <code data-testid="payout-link">{created.embedUrl}</code>
            <CopyButton text={created.embedUrl ?? ''} label="Copy link" />
          </div>
        </section>
      ) : null}
      <section className="panel" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <ErrorAlert error={cancel.error} />
        <DataTable
          resource={sessions}
          onPage={setPageNumber}
          empty={<EmptyState title="No payout sessions">Create one above; it reserves the amount from your balance until it is claimed, expires or is cancelled.</EmptyState>}
          rowKey={(session) => session.id}
          columns={[
            {
              header: 'Recipient',
              cell: (session) => (
                <>
                  <strong>{session.recipientName ?? session.recipientEmail}</strong>
                  {session.recipientName || session.description ? <div className="small muted">{session.description ?? session.recipientEmail}</div> : null}
                </>
              ),
            },
            {
              header: 'Status',
              cell: (session) => (
                <>
                  <StatusBadge status={session.status} />
                  <SecondPerson session={session} viewer={viewer} onConfirmed={sessions.reload} />
                </>
              ),
            },
            { header: 'Amount', num: true, cell: (session) => money(session.amountCents, session.currency) },
            { header: 'When', cell: (session) => <SessionWhen session={session} /> },
          ]}
          actions={(session) => (
            <>
              {session.embedUrl && OPEN.has(session.status) ? (
                <>
                  <CopyButton text={embedSnippet(session)} label="Copy snippet" />
                  <CopyButton text={session.embedUrl} label="Copy link" />
                </>
              ) : null}
              {OPEN.has(session.status) && mayPay ? (
                <Button small variant="danger-ghost" onClick={() => cancel.ask(session)} aria-label={`Cancel the payout to ${session.recipientEmail}`}>
                  Cancel
                </Button>
              ) : null}
            </>
          )}
        />
      </section>
      <Confirm
        {...cancel.dialog}
        title="Cancel this payout?"
        body={
          cancelling ? `${money(cancelling.amountCents, cancelling.currency)} to ${cancelling.recipientEmail} can no longer be claimed; the reserve returns to your balance.` : ''
        }
        confirmLabel="Cancel payout"
      />
    </>
  );
}

/** Open sessions say when they expire; closed ones say what happened and when (a failure with its reason). */
function SessionWhen({ session }: { session: PayoutSession }) {
  if (OPEN.has(session.status))
    return (
      <>
        <span className="nowrap">Expires</span> <Time iso={session.expiresAt} />
      </>
    );
  if (session.status === 'failed')
    return (
      <>
        <span className="nowrap">Failed</span> <Time iso={session.updatedAt} />
        {session.failureReason ? (
          <div className="small" style={{ color: 'var(--bad)' }}>
            {session.failureReason}
          </div>
        ) : null}
      </>
    );
  const what = session.status === 'completed' ? 'Paid' : session.status === 'expired' ? 'Expired' : 'Cancelled';
  return (
    <>
      <span className="nowrap">{what}</span> <Time iso={session.status === 'expired' ? session.expiresAt : session.updatedAt} />
    </>
  );
}
