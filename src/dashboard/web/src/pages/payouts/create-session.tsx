import { useState, type FormEvent } from 'react';
import { decimalToMinor } from '../../../../../platform/money/format-amount';
import { api, ApiError, data } from '../../api/client';
import type { PayoutSession } from '../../api/types';
import { Button, ErrorAlert, Field, useAction } from '../../components/ui';
import { money } from '../../lib/format';

export const SESSIONS = '/api/commerce/integration/payout-embed/sessions';

/** The API takes up to 10 allowed origins (payout-embed.request.dto.ts MAX_ALLOWED_ORIGINS). */
const MAX_ORIGINS = 10;

const availableIn = (details: unknown): string | null => {
  const item = Array.isArray(details) ? (details as { availableCents?: string; currency?: string }[]).find((d) => d.availableCents !== undefined) : undefined;
  return item?.availableCents !== undefined && item.currency ? money(item.availableCents, item.currency) : null;
};

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
          allowedOrigins: origins.length > 0 ? origins : undefined,
        },
      }),
    );
    onCreated(session);
    setEmail('');
    setName('');
    setAmount('');
    setDescription('');
  });
  const origins = origin.split(/[\s,]+/).filter(Boolean);
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  // In words, not the validator's (which names the field `allowedOrigins`).
  const originsMessage =
    origins.length > MAX_ORIGINS
      ? `At most ${MAX_ORIGINS} origins.`
      : fields.allowedOrigins
        ? 'Each origin is a scheme and host, like https://platform.example (a port is allowed, no path).'
        : undefined;
  // The refusal says what is available to pay out now: the amount the refusal itself names (its details).
  const short = create.error instanceof ApiError && create.error.code === 'PAYOUT_INSUFFICIENT_BALANCE' ? availableIn(create.error.details) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = decimalToMinor(amount, currency);
    setAmountError(minor === null ? 'Enter an amount like 25.00.' : null);
    if (minor !== null && origins.length <= MAX_ORIGINS) void create.run(minor);
  };
  const amountMessage = amountError ?? fields.amountCents;
  return (
    <section className="panel" aria-labelledby="new-session-title">
      <h2 id="new-session-title">New payout</h2>
      {create.error && Object.keys(fields).length === 0 ? <ErrorAlert error={create.error} /> : null}
      {short ? (
        <p className="small" role="status" data-testid="payout-available">
          Available to pay out now: {short}.
        </p>
      ) : null}
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
          <Field label="Your sites’ origins (may frame it)" error={originsMessage} hint={`Up to ${MAX_ORIGINS}, separated by spaces.`}>
            {(props) => (
              <input {...props} type="text" value={origin} onChange={(e) => setOrigin(e.target.value)} placeholder="https://platform.example https://www.platform.example" />
            )}
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
