import { useState, type FormEvent } from 'react';
import { decimalToMinor } from '../../../../platform/money/format-amount';
import { api, ApiError, data, page } from '../api/client';
import type { PayoutSession } from '../api/types';
import { Button, Confirm, CopyButton, EmptyState, ErrorAlert, Field, ListState, PageHead, Pager, StatusBadge, useAction } from '../components/ui';
import { money, Time } from '../lib/format';
import { useResource } from '../lib/use-resource';

const SESSIONS = '/api/commerce/integration/payout-embed/sessions';

export const embedSnippet = (session: PayoutSession) =>
  `<iframe src="${session.embedUrl ?? ''}" title="Claim your payout" style="width:100%;max-width:480px;height:560px;border:0"></iframe>`;

const OPEN = new Set(['created', 'claimed']);

export function PayoutsPage() {
  const [pageNumber, setPageNumber] = useState(1);
  const sessions = useResource(() => page<PayoutSession[]>(api.GET(SESSIONS, { params: { query: { page: pageNumber, limit: 20 } } })), [pageNumber]);
  const [created, setCreated] = useState<PayoutSession | null>(null);
  const [cancelling, setCancelling] = useState<PayoutSession | null>(null);
  const cancel = useAction(async (session: PayoutSession) => {
    await data(api.POST('/api/commerce/integration/payout-embed/sessions/{id}/cancel', { params: { path: { id: session.id } } }));
    setCancelling(null);
    sessions.reload();
  });
  return (
    <>
      <PageHead title="Payouts" lede="Payout Embed: send money to someone by email; they claim it in a frame on your site and name their wallet." />
      <CreateSession
        onCreated={(session) => {
          setCreated(session);
          sessions.reload();
        }}
      />
      {created ? (
        <section className="panel" aria-labelledby="created-session-title">
          <h2 id="created-session-title">Embed this payout</h2>
          <p className="muted" style={{ marginTop: 0 }}>
            Put the frame on a page of an allowed origin. The address carries the session&rsquo;s credential after <code>#t=</code>: treat it like a password.
          </p>
          <div className="secret-box">
            <code data-testid="payout-snippet">{embedSnippet(created)}</code>
            <CopyButton text={embedSnippet(created)} label="Copy snippet" />
          </div>
        </section>
      ) : null}
      <section className="panel" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <ErrorAlert error={cancel.error} />
        <ListState
          resource={{ ...sessions, data: sessions.data?.data }}
          empty={<EmptyState title="No payout sessions">Create one above; it reserves the amount from your balance until it is claimed, expires or is cancelled.</EmptyState>}
        >
          {(items) => (
            <div className="table-wrap">
              <table className="responsive">
                <thead>
                  <tr>
                    <th>Recipient</th>
                    <th>Status</th>
                    <th className="num">Amount</th>
                    <th>Expires</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((session) => (
                    <tr key={session.id}>
                      <td data-label="Recipient">
                        <strong>{session.recipientName ?? session.recipientEmail}</strong>
                        <div className="small muted">{session.description ?? session.recipientEmail}</div>
                      </td>
                      <td data-label="Status">
                        <StatusBadge status={session.status} />
                      </td>
                      <td data-label="Amount" className="num">
                        {money(session.amountCents, session.currency)}
                      </td>
                      <td data-label="Expires">
                        <Time iso={session.expiresAt} />
                      </td>
                      <td className="actions">
                        <span className="row" style={{ justifyContent: 'flex-end' }}>
                          {session.embedUrl && OPEN.has(session.status) ? <CopyButton text={embedSnippet(session)} label="Copy snippet" /> : null}
                          {OPEN.has(session.status) ? (
                            <Button
                              small
                              variant="danger-ghost"
                              onClick={() => (cancel.setError(null), setCancelling(session))}
                              aria-label={`Cancel the payout to ${session.recipientEmail}`}
                            >
                              Cancel
                            </Button>
                          ) : null}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListState>
        <Pager meta={sessions.data?.meta ?? null} onPage={setPageNumber} />
      </section>
      <Confirm
        open={cancelling !== null}
        title="Cancel this payout?"
        body={
          cancelling ? `${money(cancelling.amountCents, cancelling.currency)} to ${cancelling.recipientEmail} can no longer be claimed; the reserve returns to your balance.` : ''
        }
        confirmLabel="Cancel payout"
        busy={cancel.busy}
        error={cancel.error}
        onConfirm={() => cancelling && void cancel.run(cancelling)}
        onCancel={() => setCancelling(null)}
      />
    </>
  );
}

function CreateSession({ onCreated }: { onCreated: (session: PayoutSession) => void }) {
  const [recipientEmail, setEmail] = useState('');
  const [recipientName, setName] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [description, setDescription] = useState('');
  const [origin, setOrigin] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const create = useAction(async (amountCents: string) => {
    const session = await data<PayoutSession>(
      api.POST(SESSIONS, {
        body: {
          recipientEmail,
          recipientName: recipientName || undefined,
          amountCents,
          currency,
          description: description || undefined,
          allowedOrigins: origin ? [origin] : undefined,
        },
      }),
    );
    onCreated(session);
    setEmail('');
    setName('');
    setAmount('');
    setDescription('');
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = decimalToMinor(amount, currency);
    setAmountError(minor === null ? 'Enter an amount like 25.00.' : null);
    if (minor !== null) void create.run(minor);
  };
  const amountMessage = amountError ?? fields.amountCents;
  return (
    <section className="panel" aria-labelledby="new-session-title">
      <h2 id="new-session-title">New payout</h2>
      {create.error && Object.keys(fields).length === 0 ? <ErrorAlert error={create.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="Recipient email" error={fields.recipientEmail}>
            {(props) => <input {...props} type="email" value={recipientEmail} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <Field label="Recipient name (optional)">{(props) => <input {...props} type="text" value={recipientName} onChange={(e) => setName(e.target.value)} />}</Field>
          <Field label="Amount" error={amountMessage}>
            {(props) => (
              <div className="row" style={{ flexWrap: 'nowrap' }}>
                <input {...props} type="text" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="25.00" />
                <select aria-label="Currency" value={currency} onChange={(e) => setCurrency(e.target.value)} style={{ width: '6.5rem' }}>
                  {['USD', 'EUR', 'GBP'].map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              </div>
            )}
          </Field>
        </div>
        <div className="form-row">
          <Field label="What it is for (shown to the recipient)">
            {(props) => <input {...props} type="text" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="Contest prize, March" />}
          </Field>
          <Field label="Your site’s origin (may frame it)" error={fields.allowedOrigins}>
            {(props) => <input {...props} type="url" value={origin} onChange={(e) => setOrigin(e.target.value)} placeholder="https://platform.example" />}
          </Field>
        </div>
        <div>
          <Button type="submit" variant="primary" icon="send" busy={create.busy}>
            Create payout
          </Button>
        </div>
      </form>
    </section>
  );
}
