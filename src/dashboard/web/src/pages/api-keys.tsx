import { useState } from 'react';
import { api, data } from '../api/client';
import type { ApiKey } from '../api/types';
import { DataTable, useConfirmedAction } from '../components/data-list';
import { Badge, Button, Confirm, CopyButton, EmptyState, PageHead } from '../components/ui';
import { Time } from '../lib/format';
import { useResource } from '../lib/use-resource';
import { CreateKey } from './api-keys/create-key';

export function ApiKeysPage() {
  const keys = useResource(() => data<ApiKey[]>(api.GET('/api/commerce/api-keys')));
  const [issued, setIssued] = useState<{ name: string; key: string } | null>(null);
  const revoke = useConfirmedAction(async (key: ApiKey) => {
    await data(api.DELETE('/api/commerce/api-keys/{id}', { params: { path: { id: key.id } } }));
    keys.reload();
  });
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
        <DataTable
          resource={keys}
          select={(all) => all.filter((key) => !key.revokedAt)}
          empty={<EmptyState title="No API keys">Create one above to call the API from your server.</EmptyState>}
          rowKey={(key) => key.id}
          rowProps={(key) => ({ 'data-key-id': key.id })}
          columns={[
            { header: 'Name', cell: (key) => <strong>{key.name}</strong> },
            {
              header: 'Key',
              cell: (key) => (
                <code>
                  {key.prefix ?? 'sk_'}…{key.lastFour}
                </code>
              ),
            },
            {
              header: 'Scopes',
              cell: (key) => (
                <span className="row">
                  {key.scopes.map((scope) => (
                    <Badge key={scope} tone="info">
                      {scope}
                    </Badge>
                  ))}
                </span>
              ),
            },
            { header: 'Created', cell: (key) => <Time iso={key.createdAt} /> },
            { header: 'Last used', className: 'last-used', cell: (key) => (key.lastUsedAt ? <Time iso={key.lastUsedAt} /> : <span className="muted">Never</span>) },
          ]}
          actions={(key) => (
            <Button small variant="danger-ghost" onClick={() => revoke.ask(key)} aria-label={`Revoke ${key.name}`}>
              Revoke
            </Button>
          )}
        />
      </section>
      <Confirm {...revoke.dialog} title={`Revoke “${revoke.subject?.name ?? ''}”?`} body="Calls with this key fail from now on. This cannot be undone." confirmLabel="Revoke key" />
    </>
  );
}
