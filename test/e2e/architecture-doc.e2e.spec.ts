import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * docs/architecture.md is a newcomer's map: it fails here when it names a file that does not exist, or
 * when its workflow table or ports table misses (or invents) a workflow or port of the code.
 */
const ROOT = join(__dirname, '../..');
const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(path);
    return [relative('.', path)];
  });
}
const repoFiles = ['src', 'test', 'docs', 'scripts', 'bench', 'docker'].flatMap(filesUnder).concat(readdirSync(ROOT).filter((name) => name.includes('.')));
const sourceFiles = repoFiles.filter((path) => path.startsWith('src/') && !path.endsWith('.spec.ts'));

/** The rows of the Markdown table that follows `heading` (its first cells, and the rest). */
function tableAfter(heading: string): string[][] {
  const start = architecture.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const lines = architecture.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs/architecture.md', () => {
  it('names only files that exist (a path is matched by its end: `platform/clock/clock.ts`, `html-page.ts`)', () => {
    const named = new Set([...architecture.matchAll(/`([A-Za-z0-9_./-]+\.(?:ts|tsx|md|mjs|js|json))`/g)].map((m) => m[1]!));
    const examples = [...named].filter((name) => /(^|\/)thing/.test(name));
    const missing = [...named].filter((name) => !examples.includes(name) && !repoFiles.some((file) => file === name || file.endsWith(`/${name}`)));
    expect(missing).toEqual([]);
  });

  it('lists every workflow of the code, and only those, each with its file', () => {
    const rows = tableAfter('Workflows in the service');
    const workflowsInCode = sourceFiles
      .filter((file) => file.endsWith('.workflow.ts'))
      .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^\s*name: '([a-z_]+)',/gm)].map((m) => ({ name: m[1]!, file: file.slice('src/'.length) })));
    expect(rows.map((row) => ({ name: ticked(row[0]!)[0], file: ticked(row[1]!)[0] })).sort((a, b) => a.name!.localeCompare(b.name!))).toEqual(
      workflowsInCode.sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('lists every port (*.port.ts) in its ports table, with the file it is declared in', () => {
    const rows = tableAfter('## Ports at a glance');
    const filesInTable = rows.flatMap((row) => ticked(row[1]!));
    const portsInCode = sourceFiles.filter((file) => file.endsWith('.port.ts')).map((file) => file.slice('src/'.length));
    expect(portsInCode.filter((file) => !filesInTable.includes(file))).toEqual([]);
    for (const row of rows) {
      const [port] = ticked(row[0]!);
      const [file] = ticked(row[1]!);
      const source = readFileSync(join(ROOT, 'src', file!), 'utf8');
      expect({ port, declared: new RegExp(`export (interface|class|type|abstract class) ${port}\\b`).test(source) }).toEqual({ port, declared: true });
    }
  });
});
