import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { timerStoreContract } from './timer-store.contract';

timerStoreContract('SQLite', async () => new SqliteReadStore(`${tempDir('timer-store-contract')}/read.db`));
