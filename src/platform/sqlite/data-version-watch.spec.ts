import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { onOtherConnectionsCommits } from './data-version-watch';

const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('onOtherConnectionsCommits', () => {
  it("calls back after another connection's commit, not after the watched connection's own, and never once stopped", async () => {
    const file = join(tempDir('data-version'), 'x.db');
    const watched = new Database(file);
    watched.pragma('journal_mode = WAL');
    watched.exec('CREATE TABLE t (x INTEGER)');
    const other = new Database(file);
    const commits = jest.fn();
    const stop = onOtherConnectionsCommits(watched, 5, commits);

    watched.exec('INSERT INTO t VALUES (1)');
    await waitMs(40);
    expect(commits).not.toHaveBeenCalled();

    other.exec('INSERT INTO t VALUES (2)');
    await waitMs(40);
    expect(commits).toHaveBeenCalledTimes(1);

    stop();
    other.exec('INSERT INTO t VALUES (3)');
    await waitMs(40);
    expect(commits).toHaveBeenCalledTimes(1);
    other.close();
    watched.close();
  });
});
