import { SqliteEventStore } from '../../src/platform/event-store/sqlite/sqlite-event-store';
import { tempDir } from '../support/temp-dir';
import { eventStoreContract } from './event-store.contract';

eventStoreContract('SQLite', async () => new SqliteEventStore(`${tempDir('es-contract')}/events.db`));
eventStoreContract('SQLite, commits on the writer thread', async () => new SqliteEventStore(`${tempDir('es-contract-thread')}/events.db`, { commitOn: 'writer-thread' }));
