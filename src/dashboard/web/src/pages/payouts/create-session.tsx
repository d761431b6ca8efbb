import { useState, type FormEvent } from 'react';
import { decimalToMinor } from '../../../../../platform/money/format-amount';
import { api, ApiError, data } from '../../api/client';
import type { PayoutSession } from '../../api/types';
import { Button, ErrorAlert, Field, useAction } from '../../components/ui';

export const SESSIONS = '/api/commerce/integration/payout-embed/sessions';

export function CreateSession({ onCreated }: { onCreated: (session: PayoutSession) => void }) {
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
