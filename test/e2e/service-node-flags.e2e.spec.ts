import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../bench/service-node-flags';

/**
 * The flags the service runs with are written in places that cannot import each other: package.json's start
 * and bench scripts (the benches run their api in the bench process), the Dockerfile's CMD and the benches'
 * worker (bench/service-node-flags.ts). A bench that
 * measured other flags than the service runs with would measure another service.
 */
describe('the node flags the service runs with', () => {
  const root = join(__dirname, '..', '..');

  it('are the ones npm start and the Docker image pass to node before dist/src/main.js, and npm run bench to the bench (its api)', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start!.match(/ node (.*) dist\/src\/main\.js$/)?.[1]?.split(' ')).toEqual([...SERVICE_NODE_FLAGS]);
    expect(scripts.bench!.match(/^node (.*) dist\/bench\/run-bench\.js$/)?.[1]?.split(' ')).toEqual([...SERVICE_NODE_FLAGS]);
    const cmd = readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8').match(/^CMD (\[.*\])$/m)?.[1];
    expect(JSON.parse(cmd!)).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js']);
  });

  it('are flags this node takes: a process started with them runs', () => {
    const answer = execFileSync(process.execPath, [...SERVICE_NODE_FLAGS, '-p', "require('v8').getHeapStatistics().total_available_size > 0"], { encoding: 'utf8' });
    expect(answer.trim()).toBe('true');
  });
});
