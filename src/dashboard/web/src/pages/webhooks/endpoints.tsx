import { useState } from 'react';
import { api, data } from '../../api/client';
import type { EventType, WebhookEndpoint } from '../../api/types';
import { DataTable, Notice, useConfirmedAction } from '../../components/data-list';
import { Badge, Button, Confirm, EmptyState, ErrorAlert, useAction } from '../../components/ui';
import { Time } from '../../lib/format';
import { setQuery, useLocation } from '../../lib/router';
import { useResource } from '../../lib/use-resource';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';
import { SigningSecret } from './signing-secret';

export function Endpoints({ catalogue }: { catalogue: EventType[] }) {
  const { query } = useLocation();
  const endpoints = useResource(() => data<WebhookEndpoint[]>(api.GET('/api/commerce/webhooks/endpoints')));
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const selectedId = query.get('endpoint');
  const selected = endpoints.data?.find((endpoint) => endpoint.id === selectedId) ?? null;
  const remove = useConfirmedAction(async (endpoint: WebhookEndpoint) => {
    await data(api.DELETE('/api/commerce/webhooks/endpoints/{id}', { params: { path: { id: endpoint.id } } }));
    if (selectedId === endpoint.id) setQuery({ endpoint: undefined });
    endpoints.reload();
  });
  const toggle = useAction(async (endpoint: WebhookEndpoint) => {
    await data(api.PATCH('/api/commerce/webhooks/endpoints/{id}', { params: { path: { id: endpoint.id } }, body: { enabled: !endpoint.enabled } }));
    setNotice(`${endpoint.url} is ${endpoint.enabled ? 'disabled' : 'enabled'}.`);
    endpoints.reload();
  });
  const test = useAction(async (endpoint: WebhookEndpoint) => {
    await data(api.POST('/api/commerce/webhooks/endpoints/{id}/test', { params: { path: { id: endpoint.id } } }));
    setNotice(`A webhook.test event is on its way to ${endpoint.url}. Its attempt appears in the delivery log.`);
    setQuery({ endpoint: endpoint.id });
  });
  return (
    <>
      <SigningSecret />
      <section className="panel" aria-labelledby="endpoints-title">
        <div className="panel-head">
          <div>
            <h2 id="endpoints-title">Endpoints</h2>
            <p data-testid="probation-rule">
              New endpoints start on probation: a failed delivery is tried 3 times in all instead of 7, until the endpoint first answers 2xx (to a delivery or to Send test).
            </p>
          </div>
          <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
            Add endpoint
          </Button>
        </div>
        <Notice>{notice}</Notice>
        <ErrorAlert error={toggle.error ?? test.error} />
        {editing ? (
          <EndpointForm
            endpoint={editing === 'new' ? null : editing}
            catalogue={catalogue}
            onDone={(saved) => {
              setEditing(null);
              if (saved) {
                setNotice(`Saved ${saved.url}.`);
                endpoints.reload();
              }
            }}
          />
        ) : null}
        <DataTable
          resource={endpoints}
          empty={<EmptyState title="No endpoints yet">Add the HTTPS address where your server receives events.</EmptyState>}
          rowKey={(endpoint) => endpoint.id}
          rowProps={(endpoint) => ({ 'data-endpoint-id': endpoint.id })}
          columns={[
            {
              header: 'Endpoint',
              cell: (endpoint) => (
                <>
                  <code>{endpoint.url}</code>
                  <div className="small muted">
                    Added <Time iso={endpoint.createdAt} />
                  </div>
                </>
              ),
            },
            {
              header: 'Events',
              cell: (endpoint) => (endpoint.eventTypes.length === 1 ? <code>{endpoint.eventTypes[0]}</code> : `${endpoint.eventTypes.length} event types`),
            },
            {
              header: 'State',
              cell: (endpoint) => (
                <span className="row">
                  {endpoint.enabled ? <Badge tone="good">Enabled</Badge> : <Badge tone="bad">Disabled</Badge>}
                  {endpoint.onProbation ? (
                    <span title="A failed delivery is tried 3 times in all until the endpoint first answers 2xx">
                      <Badge tone="warn">Probation</Badge>
                    </span>
                  ) : null}
                </span>
              ),
            },
          ]}
          actions={(endpoint) => (
            <>
              <Button small onClick={() => setQuery({ endpoint: endpoint.id })} aria-label={`Deliveries of ${endpoint.url}`}>
                Deliveries
              </Button>
              <Button small icon="send" busy={test.busy} disabled={!endpoint.enabled} onClick={() => void test.run(endpoint)} aria-label={`Send a test event to ${endpoint.url}`}>
                Send test
              </Button>
              <Button small onClick={() => setEditing(endpoint)} aria-label={`Edit ${endpoint.url}`}>
                Edit
              </Button>
              <Button small busy={toggle.busy} onClick={() => void toggle.run(endpoint)}>
                {endpoint.enabled ? 'Disable' : 'Enable'}
              </Button>
              <Button small variant="danger-ghost" onClick={() => remove.ask(endpoint)} aria-label={`Delete ${endpoint.url}`}>
                Delete
              </Button>
            </>
          )}
        />
      </section>
      {selected ? <DeliveryLog key={selected.id} endpoint={selected} catalogue={catalogue} /> : null}
      <Confirm
        {...remove.dialog}
        title="Delete this endpoint?"
        body={`${remove.subject?.url ?? ''} gets no more events, and pending retries to it stop.`}
        confirmLabel="Delete endpoint"
      />
    </>
  );
}
