import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { documentStoreContract } from './document-store.contract';

documentStoreContract('SQLite', async () => new SqliteReadStore(`${tempDir('document-store-contract')}/read.db`));
