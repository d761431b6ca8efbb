import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { operationalStoreContract } from './operational-store.contract';

operationalStoreContract('SQLite', async () => new SqliteReadStore(`${tempDir('operational-store-contract')}/read.db`));
