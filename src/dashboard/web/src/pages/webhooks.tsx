import { api, data } from '../api/client';
import type { EventType } from '../api/types';
import { PageHead } from '../components/ui';
import { setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { Catalogue } from './webhooks/catalogue';
import { Endpoints } from './webhooks/endpoints';

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
