import { useState } from 'react';
import { api, data, page } from '../../api/client';
import type { paths } from '../../api/schema';
import type { Delivery, EventType, WebhookEndpoint } from '../../api/types';
import { DataList, FilterSelect, ItemList, Notice } from '../../components/data-list';
import { Button, EmptyState, ErrorAlert, StatusBadge, useAction } from '../../components/ui';
import { Time } from '../../lib/format';
import { setQuery } from '../../lib/router';
import { useResource } from '../../lib/use-resource';
import { Attempts } from './attempts';
import { localToIso } from './local-time';
import { Recover } from './recover';

type DeliveryQuery = NonNullable<paths['/api/commerce/webhooks/endpoints/{id}/deliveries']['get']['parameters']['query']>;

const STATUSES = ['pending', 'succeeded', 'failed'] as const;

export function DeliveryLog({ endpoint, catalogue }: { endpoint: WebhookEndpoint; catalogue: EventType[] }) {
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
        <FilterSelect
          id="filter-status"
          label="Status"
          value={status}
          anyLabel="Any status"
          options={STATUSES.map((s) => [s, s.charAt(0).toUpperCase() + s.slice(1)] as const)}
          onChange={(value) => (setStatus(value), setPageNumber(1))}
        />
        <FilterSelect
          id="filter-type"
          label="Event type"
          value={eventType}
          anyLabel="Any type"
          options={catalogue.map((t) => [t.type, t.type] as const)}
          onChange={(value) => (setEventType(value), setPageNumber(1))}
        />
        <div className="field">
          <label htmlFor="filter-from">From</label>
          <input id="filter-from" type="datetime-local" value={from} onChange={(e) => (setFrom(e.target.value), setPageNumber(1))} />
        </div>
        <div className="field">
          <label htmlFor="filter-to">To</label>
          <input id="filter-to" type="datetime-local" value={to} onChange={(e) => (setTo(e.target.value), setPageNumber(1))} />
        </div>
      </div>
      <Notice>{notice}</Notice>
      <ErrorAlert error={redeliver.error} />
      <DataList
        resource={deliveries}
        onPage={setPageNumber}
        empty={<EmptyState title="No deliveries">{status || eventType || from || to ? 'Nothing matches these filters.' : 'Send a test event to see its attempt here.'}</EmptyState>}
      >
        {(items) => (
          <ItemList
            items={items}
            className="deliveries"
            itemKey={(delivery) => delivery.id}
            itemProps={(delivery) => ({ className: 'delivery', 'data-delivery-id': delivery.id })}
            itemStyle={{ padding: '0.6rem 0' }}
          >
            {(delivery) => {
              const last = delivery.attempts[delivery.attempts.length - 1];
              const expanded = open === delivery.id;
              return (
                <>
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
                </>
              );
            }}
          </ItemList>
        )}
      </DataList>
      <Recover endpoint={endpoint} onRecovered={deliveries.reload} />
    </section>
  );
}
