import { useState, type FormEvent } from 'react';
import { api, ApiError, data, page } from '../api/client';
import type { components, paths } from '../api/schema';
import type { Delivery, DeliveryAttempt, EventType, WebhookEndpoint } from '../api/types';

type SubscribableType = components['schemas']['CreateWebhookEndpointRequestDto']['eventTypes'][number];
type DeliveryQuery = NonNullable<paths['/api/commerce/webhooks/endpoints/{id}/deliveries']['get']['parameters']['query']>;
import { Badge, Button, Confirm, CopyButton, EmptyState, ErrorAlert, ListState, LoadError, Loading, PageHead, Pager, StatusBadge, useAction } from '../components/ui';
import { Time } from '../lib/format';
import { setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';

/** `2026-11-25T10:30` (a datetime-local value, the viewer's zone) to an ISO instant. */
const localToIso = (value: string) => (value ? new Date(value).toISOString() : undefined);

export function WebhooksPage() {
  const { query } = useLocation();
  const tab = query.get('tab') === 'catalogue' ? 'catalogue' : 'endpoints';
  const catalogue = useResource(() => data<EventType[]>(api.GET('/api/commerce/webhooks/event-types')));
  return (
    <>
      <PageHead title="Webhooks" lede="Paysplit signs and sends events to your endpoints, retrying until they answer 2xx." />
      <div className="tabs" role="tablist" aria-label="Webhooks">
        <button role="tab" aria-selected={tab === 'endpoints'} onClick={() => setQuery({ tab: undefined })}>
          Endpoints
        </button>
        <button role="tab" aria-selected={tab === 'catalogue'} onClick={() => setQuery({ tab: 'catalogue', endpoint: undefined })}>
          Event catalogue
        </button>
      </div>
      {tab === 'catalogue' ? <Catalogue catalogue={catalogue.data} error={catalogue.error} retry={catalogue.reload} /> : <Endpoints catalogue={catalogue.data ?? []} />}
    </>
  );
}

function Endpoints({ catalogue }: { catalogue: EventType[] }) {
  const { query } = useLocation();
  const endpoints = useResource(() => data<WebhookEndpoint[]>(api.GET('/api/commerce/webhooks/endpoints')));
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const selectedId = query.get('endpoint');
  const selected = endpoints.data?.find((endpoint) => endpoint.id === selectedId) ?? null;
  const remove = useAction(async (endpoint: WebhookEndpoint) => {
    await data(api.DELETE('/api/commerce/webhooks/endpoints/{id}', { params: { path: { id: endpoint.id } } }));
    setDeleting(null);
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
            <p>New endpoints start on probation: a few deliveries at a time until they answer reliably.</p>
          </div>
          <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
            Add endpoint
          </Button>
        </div>
        {notice ? (
          <div className="alert success" role="status">
            {notice}
          </div>
        ) : null}
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
        <ListState resource={endpoints} empty={<EmptyState title="No endpoints yet">Add the HTTPS address where your server receives events.</EmptyState>}>
          {(items) => (
            <div className="table-wrap">
              <table className="responsive">
                <thead>
                  <tr>
                    <th>Endpoint</th>
                    <th>Events</th>
                    <th>State</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((endpoint) => (
                    <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
                      <td data-label="Endpoint">
                        <code>{endpoint.url}</code>
                        <div className="small muted">
                          Added <Time iso={endpoint.createdAt} />
                        </div>
                      </td>
                      <td data-label="Events">{endpoint.eventTypes.length === 1 ? <code>{endpoint.eventTypes[0]}</code> : `${endpoint.eventTypes.length} event types`}</td>
                      <td data-label="State">
                        <span className="row">
                          {endpoint.enabled ? <Badge tone="good">Enabled</Badge> : <Badge tone="bad">Disabled</Badge>}
                          {endpoint.onProbation ? (
                            <span title="New endpoints get a few deliveries at a time until they have answered reliably">
                              <Badge tone="warn">Probation</Badge>
                            </span>
                          ) : null}
                        </span>
                      </td>
                      <td className="actions">
                        <span className="row" style={{ justifyContent: 'flex-end' }}>
                          <Button small onClick={() => setQuery({ endpoint: endpoint.id })} aria-label={`Deliveries of ${endpoint.url}`}>
                            Deliveries
                          </Button>
                          <Button
                            small
                            icon="send"
                            busy={test.busy}
                            disabled={!endpoint.enabled}
                            onClick={() => void test.run(endpoint)}
                            aria-label={`Send a test event to ${endpoint.url}`}
                          >
                            Send test
                          </Button>
                          <Button small onClick={() => setEditing(endpoint)} aria-label={`Edit ${endpoint.url}`}>
                            Edit
                          </Button>
                          <Button small busy={toggle.busy} onClick={() => void toggle.run(endpoint)}>
                            {endpoint.enabled ? 'Disable' : 'Enable'}
                          </Button>
                          <Button small variant="danger-ghost" onClick={() => (remove.setError(null), setDeleting(endpoint))} aria-label={`Delete ${endpoint.url}`}>
                            Delete
                          </Button>
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListState>
      </section>
      {selected ? <DeliveryLog key={selected.id} endpoint={selected} catalogue={catalogue} /> : null}
      <Confirm
        open={deleting !== null}
        title="Delete this endpoint?"
        body={`${deleting?.url ?? ''} gets no more events, and pending retries to it stop.`}
        confirmLabel="Delete endpoint"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => deleting && void remove.run(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

function EndpointForm({ endpoint, catalogue, onDone }: { endpoint: WebhookEndpoint | null; catalogue: EventType[]; onDone: (saved: WebhookEndpoint | null) => void }) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [types, setTypes] = useState<SubscribableType[]>((endpoint?.eventTypes ?? []) as SubscribableType[]);
  const subscribable = catalogue.filter((type) => type.subscribable);
  const save = useAction(async () => {
    const saved = endpoint
      ? await data<WebhookEndpoint>(api.PATCH('/api/commerce/webhooks/endpoints/{id}', { params: { path: { id: endpoint.id } }, body: { url, eventTypes: types } }))
      : await data<WebhookEndpoint>(api.POST('/api/commerce/webhooks/endpoints', { body: { url, eventTypes: types } }));
    onDone(saved);
  });
  const fields = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <form className="form panel" style={{ boxShadow: 'none', background: '#f9fafb' }} onSubmit={submit} noValidate aria-labelledby="endpoint-form-title">
      <h3 id="endpoint-form-title">{endpoint ? 'Edit endpoint' : 'New endpoint'}</h3>
      {save.error && !fields.url && !fields.eventTypes ? <ErrorAlert error={save.error} /> : null}
      <div className="field">
        <label htmlFor="endpoint-url">Endpoint URL</label>
        <input
          id="endpoint-url"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/webhooks/paysplit"
          aria-invalid={Boolean(fields.url)}
          aria-describedby="endpoint-url-hint endpoint-url-error"
          autoFocus
        />
        <div className="hint" id="endpoint-url-hint">
          HTTPS, reachable from the internet.
        </div>
        {fields.url ? (
          <div className="field-error" id="endpoint-url-error">
            {fields.url}
          </div>
        ) : null}
      </div>
      <fieldset className="field">
        <legend>Events to send</legend>
        <div className="checks">
          {subscribable.map((type) => (
            <label className="check" key={type.type} title={type.description}>
              <input
                type="checkbox"
                checked={types.includes(type.type as SubscribableType)}
                onChange={(e) => setTypes((current) => (e.target.checked ? [...current, type.type as SubscribableType] : current.filter((t) => t !== type.type)))}
              />
              <code>{type.type}</code>
            </label>
          ))}
        </div>
        {fields.eventTypes ? <div className="field-error">{fields.eventTypes}</div> : null}
      </fieldset>
      <div className="row">
        <Button type="submit" variant="primary" busy={save.busy}>
          {endpoint ? 'Save changes' : 'Add endpoint'}
        </Button>
        <Button onClick={() => onDone(null)}>Cancel</Button>
      </div>
    </form>
  );
}

function SigningSecret() {
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState(false);
  const reveal = useAction(async () => setSecret((await data<{ secret: string }>(api.GET('/api/commerce/webhooks/secret'))).secret));
  const rotate = useAction(async () => {
    const answer = await data<{ secret?: string }>(api.POST('/api/commerce/webhooks/secret/rotate'));
    setSecret(answer.secret ?? (await data<{ secret: string }>(api.GET('/api/commerce/webhooks/secret'))).secret);
    setConfirming(false);
    setRotated(true);
  });
  return (
    <section className="panel" aria-labelledby="secret-title">
      <div className="panel-head">
        <div>
          <h2 id="secret-title">Signing secret</h2>
          <p>Verify the X-Paysplit-Signature header of every delivery with it.</p>
        </div>
        <Button variant="danger-ghost" icon="refresh" onClick={() => (rotate.setError(null), setConfirming(true))}>
          Rotate secret
        </Button>
      </div>
      {rotated ? (
        <div className="alert success" role="status">
          The secret was rotated. Deliveries are signed with the new secret from now on: update your server.
        </div>
      ) : null}
      <ErrorAlert error={reveal.error} />
      <div className="secret-box">
        <code data-testid="signing-secret">{secret ?? 'whsec_••••••••••••••••••••••••••••••••'}</code>
        {secret ? (
          <>
            <CopyButton text={secret} label="Copy secret" />
            <Button small onClick={() => setSecret(null)}>
              Hide
            </Button>
          </>
        ) : (
          <Button small icon="eye" busy={reveal.busy} onClick={() => void reveal.run()}>
            Reveal
          </Button>
        )}
      </div>
      <Confirm
        open={confirming}
        title="Rotate the signing secret?"
        body="Deliveries are signed with a new secret from now on; signatures made with the old one stop verifying once your server uses the new one."
        confirmLabel="Rotate secret"
        busy={rotate.busy}
        error={rotate.error}
        onConfirm={() => void rotate.run()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

const STATUSES = ['pending', 'succeeded', 'failed'] as const;

function DeliveryLog({ endpoint, catalogue }: { endpoint: WebhookEndpoint; catalogue: EventType[] }) {
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const deliveries = useResource(
    () =>
      page<Delivery[]>(
        api.GET('/api/commerce/webhooks/endpoints/{id}/deliveries', {
          params: {
            path: { id: endpoint.id },
            query: {
              status: (status || undefined) as DeliveryQuery['status'],
              eventType: (eventType || undefined) as DeliveryQuery['eventType'],
              from: localToIso(from),
              to: localToIso(to),
              page: pageNumber,
              limit: 20,
            },
          },
        }),
      ),
    [endpoint.id, status, eventType, from, to, pageNumber],
  );
  const redeliver = useAction(async (delivery: Delivery) => {
    await data(api.POST('/api/commerce/webhooks/deliveries/{id}/redeliver', { params: { path: { id: delivery.id } } }));
    setNotice(`Delivery ${delivery.id} is queued again.`);
    deliveries.reload();
  });
  const list = { ...deliveries, data: deliveries.data?.data };
  return (
    <section className="panel" aria-labelledby="deliveries-title">
      <div className="panel-head">
        <div>
          <h2 id="deliveries-title">Delivery log</h2>
          <p>
            <code>{endpoint.url}</code> · newest first
          </p>
        </div>
        <span className="row">
          <Button small icon="refresh" busy={deliveries.loading && Boolean(deliveries.data)} onClick={deliveries.reload}>
            Refresh
          </Button>
          <Button small onClick={() => setQuery({ endpoint: undefined })}>
            Close
          </Button>
        </span>
      </div>
      <div className="filters">
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select id="filter-status" value={status} onChange={(e) => (setStatus(e.target.value), setPageNumber(1))}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.charAt(0).toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-type">Event type</label>
          <select id="filter-type" value={eventType} onChange={(e) => (setEventType(e.target.value), setPageNumber(1))}>
            <option value="">Any type</option>
            {catalogue.map((t) => (
              <option key={t.type} value={t.type}>
                {t.type}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-from">From</label>
          <input id="filter-from" type="datetime-local" value={from} onChange={(e) => (setFrom(e.target.value), setPageNumber(1))} />
        </div>
        <div className="field">
          <label htmlFor="filter-to">To</label>
          <input id="filter-to" type="datetime-local" value={to} onChange={(e) => (setTo(e.target.value), setPageNumber(1))} />
        </div>
      </div>
      {notice ? (
        <div className="alert success" role="status">
          {notice}
        </div>
      ) : null}
      <ErrorAlert error={redeliver.error} />
      <ListState
        resource={list}
        empty={<EmptyState title="No deliveries">{status || eventType || from || to ? 'Nothing matches these filters.' : 'Send a test event to see its attempt here.'}</EmptyState>}
      >
        {(items) => (
          <ul className="deliveries" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((delivery) => {
              const last = delivery.attempts[delivery.attempts.length - 1];
              const expanded = open === delivery.id;
              return (
                <li key={delivery.id} className="delivery" style={{ borderTop: '1px solid var(--line)', padding: '0.6rem 0' }} data-delivery-id={delivery.id}>
                  <div className="spread">
                    <button
                      className="btn btn-ghost"
                      style={{ padding: '0.25rem', textAlign: 'left', whiteSpace: 'normal' }}
                      aria-expanded={expanded}
                      onClick={() => setOpen(expanded ? null : delivery.id)}
                    >
                      <span className="delivery-summary">
                        <StatusBadge status={delivery.status} /> <code>{delivery.eventType}</code>
                        <span className="muted small">
                          {last ? `HTTP ${last.responseStatus ?? '—'} · ${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? '' : 's'}` : 'not attempted yet'}
                        </span>
                      </span>
                    </button>
                    <span className="row small muted">
                      <Time iso={delivery.createdAt} />
                      <Button small busy={redeliver.busy} onClick={() => void redeliver.run(delivery)} aria-label={`Redeliver ${delivery.id}`}>
                        Redeliver
                      </Button>
                    </span>
                  </div>
                  {expanded ? <Attempts delivery={delivery} /> : null}
                </li>
              );
            })}
          </ul>
        )}
      </ListState>
      <Pager meta={deliveries.data?.meta ?? null} onPage={setPageNumber} />
      <Recover endpoint={endpoint} onRecovered={deliveries.reload} />
    </section>
  );
}

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <p className="muted small">No attempt yet{delivery.nextAttemptAt ? '; the first is scheduled.' : '.'}</p>;
  return (
    <ol className="attempts" style={{ margin: '0.5rem 0 0', paddingLeft: '1.25rem' }}>
      {delivery.attempts.map((attempt: DeliveryAttempt) => (
        <li key={attempt.attempt} style={{ marginBottom: '0.75rem' }}>
          <dl className="facts small">
            <dt>Attempted</dt>
            <dd>
              <Time iso={attempt.attemptedAt} />
            </dd>
            <dt>Response</dt>
            <dd className="response-status">
              {attempt.responseStatus === null ? <Badge tone="bad">No response</Badge> : <Badge tone={attempt.succeeded ? 'good' : 'bad'}>HTTP {attempt.responseStatus}</Badge>}
            </dd>
            <dt>Latency</dt>
            <dd>{attempt.latencyMs} ms</dd>
            {attempt.error ? (
              <>
                <dt>Error</dt>
                <dd>{attempt.error}</dd>
              </>
            ) : null}
          </dl>
          <details>
            <summary className="small">Request headers and body</summary>
            <pre>
              {Object.entries(attempt.requestHeaders ?? {})
                .map(([name, value]) => `${name}: ${value ?? '(computed at send time)'}`)
                .join('\n') || '—'}
            </pre>
            <pre>{prettyJson(attempt.requestBody)}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

function prettyJson(body: string | null | undefined): string {
  if (!body) return '—';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Recover({ endpoint, onRecovered }: { endpoint: WebhookEndpoint; onRecovered: () => void }) {
  const [since, setSince] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const recover = useAction(async () => {
    let recovered = 0;
    // At most 500 a call: keep calling while the service says some remain.
    for (;;) {
      const answer = await data<{ recovered: number; remaining?: number }>(
        api.POST('/api/commerce/webhooks/endpoints/{id}/recover', { params: { path: { id: endpoint.id } }, body: { since: localToIso(since) ?? '' } }),
      );
      recovered += answer.recovered;
      setResult(`Redelivering ${recovered} failed deliver${recovered === 1 ? 'y' : 'ies'}…`);
      if (!answer.remaining || answer.recovered === 0) break;
    }
    setResult(`${recovered} failed deliver${recovered === 1 ? 'y is' : 'ies are'} being redelivered.`);
    onRecovered();
  });
  const fields = recover.error instanceof ApiError ? recover.error.fieldErrors() : {};
  return (
    <form
      className="form"
      style={{ marginTop: '1.25rem', borderTop: '1px solid var(--line)', paddingTop: '1rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        void recover.run();
      }}
      noValidate
    >
      <h3>Recover after an outage</h3>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <div className="field" style={{ flex: '1 1 220px' }}>
          <label htmlFor="recover-since">Redeliver every failed delivery since</label>
          <input id="recover-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} aria-invalid={Boolean(fields.since)} required />
        </div>
        <Button type="submit" busy={recover.busy} disabled={!since}>
          Recover failed deliveries
        </Button>
      </div>
      {fields.since ? <div className="field-error">{fields.since}</div> : <ErrorAlert error={recover.error} />}
      {result ? (
        <div className="alert info" role="status">
          {result}
        </div>
      ) : null}
    </form>
  );
}

function Catalogue({ catalogue, error, retry }: { catalogue: EventType[] | undefined; error: Error | undefined; retry: () => void }) {
  if (error && !catalogue) return <LoadError error={error} retry={retry} />;
  if (!catalogue) return <Loading />;
  return (
    <section className="panel" aria-labelledby="catalogue-title">
      <h2 id="catalogue-title">Event catalogue</h2>
      <p className="muted">Every event type Paysplit sends, with a whole example delivery body.</p>
      {catalogue.map((type) => (
        <details key={type.type} style={{ borderTop: '1px solid var(--line)', padding: '0.65rem 0' }}>
          <summary>
            <code>{type.type}</code> <span className="muted">· {type.description}</span>
            {type.subscribable ? null : (
              <>
                {' '}
                <Badge>test only</Badge>
              </>
            )}
          </summary>
          <div className="spread" style={{ marginTop: '0.5rem' }}>
            <span className="small muted">Example payload</span>
            <CopyButton text={JSON.stringify(type.example, null, 2)} label="Copy example" />
          </div>
          <pre>{JSON.stringify(type.example, null, 2)}</pre>
        </details>
      ))}
    </section>
  );
}
