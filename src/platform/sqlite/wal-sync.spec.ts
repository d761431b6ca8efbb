import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { holdFsyncs, settlesSoon } from '../../../test/support/held-fsyncs';
import { WalSync } from './wal-sync';

afterEach(() => jest.restoreAllMocks());

function walDatabase() {
  const file = join(tempDir('wal-sync'), 'x.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x INTEGER)');
  return { file, db };
}

describe('WalSync', () => {
  it('resolves only once its fsync returns, and gives the callers that came during an fsync one new fsync together', async () => {
    const { file, db } = walDatabase();
    const wal = new WalSync(db, file);
    const fsyncs = holdFsyncs();

    const first = wal.sync();
    const during = [wal.sync(), wal.sync(), wal.sync()];
    expect(fsyncs.calls()).toBe(1);
    expect(await settlesSoon(first)).toBe(false);

    fsyncs.releaseOne();
    await first;
    expect(await settlesSoon(Promise.all(during))).toBe(false); // their writes may have come after the first fsync began
    expect(fsyncs.calls()).toBe(2);
    fsyncs.releaseOne();
    await Promise.all(during);

    await wal.close();
    db.close();
  });

  it('waits for the fsyncs under way before it closes the file', async () => {
    const { file, db } = walDatabase();
    const wal = new WalSync(db, file);
    const fsyncs = holdFsyncs();
    const syncing = wal.sync();
    const closing = wal.close();
    expect(await settlesSoon(closing)).toBe(false);
    fsyncs.releaseOne();
    await Promise.all([syncing, closing]);
    await expect(wal.sync()).rejects.toThrow('closed');
    db.close();
  });
});
