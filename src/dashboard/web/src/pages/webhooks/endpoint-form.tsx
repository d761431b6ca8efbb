import { useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../../api/client';
import type { components } from '../../api/schema';
import type { EventType, WebhookEndpoint } from '../../api/types';
import { Button, ErrorAlert, useAction } from '../../components/ui';

type SubscribableType = components['schemas']['CreateWebhookEndpointRequestDto']['eventTypes'][number];

export function EndpointForm({ endpoint, catalogue, onDone }: { endpoint: WebhookEndpoint | null; catalogue: EventType[]; onDone: (saved: WebhookEndpoint | null) => void }) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [types, setTypes] = useState<SubscribableType[]>((endpoint?.eventTypes ?? []) as SubscribableType[]);
  const subscribable = catalogue.filter((type) => type.subscribable);
  const save = useAction(async () => {
    const saved = endpoint
      ? await data<WebhookEndpoint>(api.PATCH('/api/commerce/webhooks/endpoints/{id}', { params: { path: { id: endpoint.id } }, body: { url, eventTypes: types } }))
      : await data<WebhookEndpoint>(api.POST('/api/commerce/webhooks/endpoints', { body: { url, eventTypes: types } }));
    onDone(saved);
  });
  const [noTypes, setNoTypes] = useState(false);
  const fields = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  // Said in words here, before any call: the validator's own message names the field ("eventTypes must contain ...").
  if (fields.eventTypes) fields.eventTypes = 'Choose at least one event to send.';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNoTypes(types.length === 0);
    if (types.length > 0) void save.run();
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
        {noTypes || fields.eventTypes ? <div className="field-error">{noTypes ? 'Choose at least one event to send.' : fields.eventTypes}</div> : null}
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
