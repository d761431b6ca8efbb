import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { DashboardFiles } from './dashboard-files';

/** Issue 24 item 7: every distinct unknown asset name used to add a permanent (null) cache entry. */
describe('DashboardFiles asset cache', () => {
  function build(): { root: string; files: DashboardFiles } {
    const root = tempDir('dashboard-files');
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
    return { root, files: new DashboardFiles([root]) };
  }

  it('caches a file that exists, once', () => {
    const { files } = build();
    expect(files.asset('app-abc123.js')?.body.toString()).toBe('console.log(1)');
    expect(files.asset('app-abc123.js')?.type).toBe('application/javascript; charset=utf-8');
    expect(files.cachedFiles).toBe(1);
  });

  it('does not cache names that do not exist, however many are asked for', () => {
    const { files } = build();
    for (let i = 0; i < 500; i++) expect(files.asset(`unknown-${i}.js`)).toBeNull();
    expect(files.cachedFiles).toBe(0);
  });

  it('serves a file that appears after a miss (the miss was not remembered)', () => {
    const { root, files } = build();
    expect(files.asset('late-def456.js')).toBeNull();
    writeFileSync(join(root, 'assets', 'late-def456.js'), 'late');
    expect(files.asset('late-def456.js')?.body.toString()).toBe('late');
  });
});
