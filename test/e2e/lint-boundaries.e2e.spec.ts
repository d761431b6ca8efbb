import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The import boundaries of docs/architecture.md apply to every folder under src/, found rather than listed:
 * a forbidden import planted in a module lint used to skip fails lint, and a folder that is not a module
 * stops lint with a message naming it. Each case writes into the real tree and removes what it wrote.
 */
const ROOT = join(__dirname, '../..');
const eslint = (...files: string[]) => spawnSync(process.execPath, [join(ROOT, 'node_modules/eslint/bin/eslint.js'), ...files], { cwd: ROOT, encoding: 'utf8' });

describe('lint boundaries', () => {
  const planted: string[] = [];
  afterEach(() => {
    for (const path of planted.splice(0)) rmSync(path, { recursive: true, force: true });
  });

  it.each([
    ['earnings', 'application', "import { splitDecider } from '../../split/domain/split.decider';\nexport const d = splitDecider;\n", 'through its index.ts'],
    ['activity', 'domain', "import { Injectable } from '@nestjs/common';\nexport const i = Injectable;\n", 'no NestJS import'],
  ])('fails on a forbidden import in src/%s/%s', (module, layer, source, message) => {
    const file = join(ROOT, 'src', module, layer, `zz-planted-boundary-${process.pid}.ts`);
    writeFileSync(file, source);
    planted.push(file);
    const result = eslint(file);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(message);
    expect(result.stdout).toContain('docs/architecture.md');
  });

  it('refuses to run with a folder under src/ it cannot classify', () => {
    const folder = join(ROOT, 'src', `zz-unclassified-${process.pid}`);
    mkdirSync(folder);
    planted.push(folder);
    writeFileSync(join(folder, 'thing.ts'), 'export const thing = 1;\n');
    const result = eslint(join(ROOT, 'src/main.ts'));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`cannot classify src/zz-unclassified-${process.pid}/`);
  });
});
