import { EsdbEventStore } from '../../src/platform/event-store/esdb/esdb-event-store';
import { eventStoreContract } from './event-store.contract';

// e.g. EVENTSTORE_URL='esdb://localhost:2113?tls=false' against `docker run eventstore/eventstore --insecure`.
const url = process.env.EVENTSTORE_URL;

if (url) {
  eventStoreContract('EventStoreDB', async () => EsdbEventStore.connect(url));
} else {
  describe.skip('EventStore contract: EventStoreDB', () => {
    it.skip('needs a server: EVENTSTORE_URL is unset', () => undefined);
  });
}
