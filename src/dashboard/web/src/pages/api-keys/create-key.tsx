import { useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../../api/client';
import { Button, ErrorAlert, useAction } from '../../components/ui';

const SCOPES = [
  { value: 'split:write', label: 'Splits', hint: 'create and revise Splits, sub-vendors, payouts' },
  { value: 'checkout:write', label: 'Checkout', hint: 'create checkouts and subscriptions' },
  { value: 'payout:write', label: 'Payout Embed', hint: 'create payout sessions' },
] as const;
type ScopeValue = (typeof SCOPES)[number]['value'];

export function CreateKey({ onIssued }: { onIssued: (issued: { name: string; key: string }) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ScopeValue[]>(['split:write']);
  const create = useAction(async () => {
    const issued = await data<{ key: string }>(api.POST('/api/commerce/api-keys', { body: { name, scopes } }));
    onIssued({ name, key: issued.key });
    setName('');
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <section className="panel" aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      {create.error && !fields.name && !fields.scopes ? <ErrorAlert error={create.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <div className="field">
            <label htmlFor="key-name">Name</label>
            <input
              id="key-name"
              type="text"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="production server"
              aria-invalid={Boolean(fields.name)}
              aria-describedby={fields.name ? 'key-name-error' : undefined}
            />
            {fields.name ? (
              <div className="field-error" id="key-name-error">
                {fields.name}
              </div>
            ) : null}
          </div>
          <fieldset className="field">
            <legend>Scopes</legend>
            <div className="checks" aria-invalid={Boolean(fields.scopes)}>
              {SCOPES.map((scope) => (
                <label className="check" key={scope.value} title={scope.hint}>
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope.value)}
                    onChange={(e) => setScopes((current) => (e.target.checked ? [...current, scope.value] : current.filter((s) => s !== scope.value)))}
                  />
                  {scope.label} <code className="muted">{scope.value}</code>
                </label>
              ))}
            </div>
            {fields.scopes ? <div className="field-error">{fields.scopes}</div> : null}
          </fieldset>
        </div>
        <div>
          <Button type="submit" variant="primary" icon="plus" busy={create.busy}>
            Create key
          </Button>
        </div>
      </form>
    </section>
  );
}
