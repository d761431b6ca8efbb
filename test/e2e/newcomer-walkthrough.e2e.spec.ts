import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../support/temp-dir';

/**
 * A newcomer's path is written and true: docs/first-module.md builds a tiny module file by file, and the
 * "How to add a command" checklist of docs/architecture.md walks its LockThing command. This test writes
 * the walkthrough into a copy of the repository and runs what CI runs on it, and checks every step of the
 * checklist against the walkthrough's files.
 */
const ROOT = join(__dirname, '../..');
const walkthrough = readFileSync(join(ROOT, 'docs/first-module.md'), 'utf8');
const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The walkthrough's files: each ```ts block whose info string names its path. */
const files = new Map([...walkthrough.matchAll(/^```ts ([^\s`]+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, m[2]!]));

/** The numbered steps of "How to add a command", each with the names it quotes. */
function checklistSteps(): { number: number; quoted: string[] }[] {
  const start = architecture.indexOf('## How to add a command');
  expect(start).toBeGreaterThanOrEqual(0);
  const section = architecture.slice(start).split(/\n## /)[0]!;
  return [...section.matchAll(/^(\d+)\. ([\s\S]*?)(?=^\d+\. |(?![\s\S]))/gm)].map((m) => ({ number: Number(m[1]), quoted: [...m[2]!.matchAll(/`([^`]+)`/g)].map((q) => q[1]!) }));
}

const isPath = (name: string) => /^(src|test)\//.test(name);

function run(cwd: string, command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the newcomer walkthrough (docs/first-module.md)', () => {
  it('has a file for every layer of a module', () => {
    expect([...files.keys()].sort()).toEqual(
      expect.arrayContaining([
        'src/thing/domain/thing.decider.ts',
        'src/thing/domain/thing.decider.spec.ts',
        'src/thing/projections/thing-read-model.projection.ts',
        'src/thing/http/thing.controller.ts',
        'src/thing/thing.module.ts',
        'src/thing/index.ts',
        'test/e2e/thing.e2e.spec.ts',
      ]),
    );
  });

  it('checks, compiles, lints and passes its tests in a copy of the repository', () => {
    const copy = tempDir('walkthrough');
    for (const entry of ['src', 'test', 'bench', 'tsconfig.json', 'eslint.config.mjs', 'jest.config.js', '.prettierrc.json', '.prettierignore', 'package.json']) {
      // The fixtures' data dirs are what the legacy-data spec reads; nothing here runs it.
      cpSync(join(ROOT, entry), join(copy, entry), { recursive: true, filter: (from) => !/fixtures\/[^/]+\/data/.test(from) });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    for (const [path, body] of files) {
      expect(existsSync(join(copy, path))).toBe(false); // the walkthrough adds files, it never overwrites one
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      writeFileSync(join(copy, path), body);
    }
    const appModule = join(copy, 'src/app.module.ts');
    const root = readFileSync(appModule, 'utf8');
    const withThing = root.replace(/^(import .*\n)(?!import )/m, `$1import { ThingModule } from './thing';\n`).replace(/(imports: \[\n(\s+))/, `$1ThingModule,\n$2`);
    expect(withThing).toMatch(/ThingModule,\n/);
    writeFileSync(appModule, withThing);
    const compiled = run(copy, process.execPath, [join(copy, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
    expect(compiled.output.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    expect(compiled.status).toBe(0);
    const written = [...files.keys()];
    expect(run(copy, process.execPath, [join(copy, 'node_modules/eslint/bin/eslint.js'), ...written])).toMatchObject({ status: 0 });
    expect(run(copy, process.execPath, [join(copy, 'node_modules/prettier/bin/prettier.cjs'), '--check', ...written])).toMatchObject({ status: 0 });
    const tested = run(copy, process.execPath, [join(copy, 'node_modules/jest/bin/jest.js'), '--runInBand', '--forceExit', 'src/thing', 'test/e2e/thing.e2e.spec.ts']);
    expect(tested.output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(tested.status).toBe(0);
  }, 600_000);

  it('is what every step of "How to add a command" in docs/architecture.md says', () => {
    const steps = checklistSteps();
    expect(steps.map((step) => step.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const step of steps.slice(0, 8)) {
      const paths = step.quoted.filter(isPath);
      expect({ step: step.number, unknownFiles: paths.filter((path) => !files.has(path)) }).toEqual({ step: step.number, unknownFiles: [] });
      expect(paths.length).toBeGreaterThan(0);
      const text = paths.map((path) => files.get(path)!).join('\n');
      const absent = step.quoted.filter((name) => !isPath(name) && !text.includes(name));
      expect({ step: step.number, absent }).toEqual({ step: step.number, absent: [] });
    }
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts).toHaveProperty('build');
    expect(scripts).toHaveProperty('api:schema');
    expect(existsSync(join(ROOT, 'src/webhooks/domain/webhook-payloads.ts'))).toBe(true);
    const modules = readdirSync(join(ROOT, 'src'));
    expect(
      modules.some(
        (module) => existsSync(join(ROOT, 'src', module, 'domain')) && readdirSync(join(ROOT, 'src', module, 'domain')).some((file) => file.endsWith('.public-events.ts')),
      ),
    ).toBe(true);
  });
});
