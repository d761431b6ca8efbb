import { useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../api/client';
import type { ApiKey } from '../api/types';
import { Badge, Button, Confirm, CopyButton, EmptyState, ErrorAlert, ListState, PageHead, useAction } from '../components/ui';
import { Time } from '../lib/format';
import { useResource } from '../lib/use-resource';

const SCOPES = [
  { value: 'split:write', label: 'Splits', hint: 'create and revise Splits, sub-vendors, payouts' },
  { value: 'checkout:write', label: 'Checkout', hint: 'create checkouts and subscriptions' },
  { value: 'payout:write', label: 'Payout Embed', hint: 'create payout sessions' },
] as const;
type ScopeValue = (typeof SCOPES)[number]['value'];

export function ApiKeysPage() {
  const keys = useResource(() => data<ApiKey[]>(api.GET('/api/commerce/api-keys')));
  const [issued, setIssued] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useAction(async (key: ApiKey) => {
    await data(api.DELETE('/api/commerce/api-keys/{id}', { params: { path: { id: key.id } } }));
    setRevoking(null);
    keys.reload();
  });
  const active = keys.data?.filter((key) => !key.revokedAt);
  return (
    <>
      <PageHead title="API keys" lede="Your servers call Paysplit with these. A key is shown once, when it is created: store it in your secret manager." />
      <CreateKey
        onIssued={(value) => {
          setIssued(value);
          keys.reload();
        }}
      />
      {issued ? (
        <div className="panel" role="region" aria-labelledby="new-key-title">
          <h2 id="new-key-title">Copy your new key now</h2>
          <p className="muted">
            This is the only time <strong>{issued.name}</strong> is shown in full. Paysplit keeps only a hash of it.
          </p>
          <div className="secret-box">
            <code data-testid="new-api-key">{issued.key}</code>
            <CopyButton text={issued.key} label="Copy key" />
          </div>
          <p style={{ marginBottom: 0 }}>
            <Button small onClick={() => setIssued(null)}>
              I have stored it
            </Button>
          </p>
        </div>
      ) : null}
      <section className="panel" aria-labelledby="keys-title">
        <div className="panel-head">
          <h2 id="keys-title">Active keys</h2>
          <Button small icon="refresh" onClick={keys.reload} busy={keys.loading && Boolean(keys.data)}>
            Refresh
          </Button>
        </div>
        <ListState resource={{ ...keys, data: active }} empty={<EmptyState title="No API keys">Create one above to call the API from your server.</EmptyState>}>
          {(items) => (
            <div className="table-wrap">
              <table className="responsive">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Key</th>
                    <th>Scopes</th>
                    <th>Created</th>
                    <th>Last used</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((key) => (
                    <tr key={key.id} data-key-id={key.id}>
                      <td data-label="Name">
                        <strong>{key.name}</strong>
                      </td>
                      <td data-label="Key">
                        <code>
                          {key.prefix ?? 'sk_'}…{key.lastFour}
                        </code>
                      </td>
                      <td data-label="Scopes">
                        <span className="row">
                          {key.scopes.map((scope) => (
                            <Badge key={scope} tone="info">
                              {scope}
                            </Badge>
                          ))}
                        </span>
                      </td>
                      <td data-label="Created">
                        <Time iso={key.createdAt} />
                      </td>
                      <td data-label="Last used" className="last-used">
                        {key.lastUsedAt ? <Time iso={key.lastUsedAt} /> : <span className="muted">Never</span>}
                      </td>
                      <td className="actions">
                        <Button small variant="danger-ghost" onClick={() => (revoke.setError(null), setRevoking(key))} aria-label={`Revoke ${key.name}`}>
                          Revoke
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListState>
      </section>
      <Confirm
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        body="Calls with this key fail from now on. This cannot be undone."
        confirmLabel="Revoke key"
        busy={revoke.busy}
        error={revoke.error}
        onConfirm={() => revoking && void revoke.run(revoking)}
        onCancel={() => setRevoking(null)}
      />
    </>
  );
}

function CreateKey({ onIssued }: { onIssued: (issued: { name: string; key: string }) => void }) {
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
