import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { leaseStoreContract } from './lease-store.contract';

leaseStoreContract('SQLite', async () => new SqliteReadStore(`${tempDir('lease-store-contract')}/read.db`));
