import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { readStoreContract } from './read-store.contract';

readStoreContract('SQLite', async () => new SqliteReadStore(`${tempDir('rs-contract')}/read.db`));
