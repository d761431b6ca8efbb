import { SqliteEventStore } from '../../src/platform/event-store/sqlite/sqlite-event-store';
import { tempDir } from '../support/temp-dir';
import { eventStoreContract } from './event-store.contract';

eventStoreContract('SQLite', async () => new SqliteEventStore(`${tempDir('es-contract')}/events.db`));
