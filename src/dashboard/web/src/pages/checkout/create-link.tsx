import { useState, type FormEvent } from 'react';
import { decimalToMinor, fractionDigits } from '../../../../../platform/money/format-amount';
import { api, ApiError, page } from '../../api/client';
import type { PaymentLink } from '../../api/types';
import { Button, ErrorAlert, Field, useAction } from '../../components/ui';

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'KWD'];

export function CreateLink({ onCreated }: { onCreated: (link: PaymentLink) => void }) {
  const [title, setTitle] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [amountError, setAmountError] = useState<string | null>(null);
  const create = useAction(async (amountMinorUnits: string) => {
    const created = await page<{ slug: string; url: string }>(api.POST('/api/commerce/payment-links', { body: { title, amountMinorUnits, currency, provider: 'CARD_PROCESSOR' } }));
    onCreated({ ...created.data, title, amountMinorUnits, currency, provider: 'CARD_PROCESSOR', createdAt: new Date().toISOString() });
    setTitle('');
    setAmount('');
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = decimalToMinor(amount, currency);
    setAmountError(minor === null ? `Enter an amount like ${fractionDigits(currency) === 0 ? '2500' : '25.00'}.` : null);
    if (minor !== null) void create.run(minor);
  };
  const amountMessage = amountError ?? fields.amountMinorUnits;
  return (
    <section className="panel" aria-labelledby="new-link-title">
      <h2 id="new-link-title">New payment link</h2>
      {create.error && !fields.title && !fields.amountMinorUnits ? <ErrorAlert error={create.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="What is it for?" error={fields.title}>
            {(props) => <input {...props} type="text" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Beginner yoga class (60 min)" />}
          </Field>
          <Field label="Amount" error={amountMessage}>
            {(props) => (
              <input
                {...props}
                type="text"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                placeholder={fractionDigits(currency) === 0 ? '2500' : '25.00'}
              />
            )}
          </Field>
          <Field label="Currency">
            {(props) => (
              <select id={props.id} value={currency} onChange={(e) => setCurrency(e.target.value)}>
                {CURRENCIES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div>
          <Button type="submit" variant="primary" icon="plus" busy={create.busy}>
            Create link
          </Button>
        </div>
      </form>
    </section>
  );
}
