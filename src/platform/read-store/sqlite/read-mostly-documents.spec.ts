import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../../test/support/temp-dir';
import { Doc } from '../document-store.port';
import { SqliteReadStore } from './sqlite-read-store';

/**
 * A read-mostly collection (CollectionSpec.readMostly) answered from memory by one process (the api) while
 * another (the worker) commits the projection: every read sees what a read of the table would have seen at
 * the start of its event-loop turn, or later; never a document the projection has since changed.
 */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Closed after each test, passed or not (an open store's threads keep jest running). */
const opened: SqliteReadStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

async function twoProcesses() {
  const file = join(tempDir('read-mostly'), 'read.db');
  const worker = new SqliteReadStore(file);
  await worker.registerProjection('parties', [{ name: 'profiles', readMostly: true }, { name: 'events_seen' }]);
  const api = new SqliteReadStore(file);
  opened.push(api, worker);
  let checkpoint = 0;
  const commit = (...docs: (Doc & Record<string, unknown>)[]) =>
    worker.commitProjection({
      projection: 'parties',
      generation: 1,
      checkpoint: ++checkpoint,
      streamRevisions: {},
      writes: docs.map((doc) => ({ kind: 'put' as const, collection: 'profiles', doc })),
    });
  return { file, worker, api, commit };
}

describe('read-mostly documents (SqliteReadStore)', () => {
  it('answers the new document in the next turn after the projection changed it, and one that did not exist once it is written', async () => {
    const { api, commit } = await twoProcesses();
    await commit({ id: 'p1', name: 'Acme' });
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Acme' });
    expect(await api.get('profiles', 'p2')).toBeNull();
    await turn();
    await commit({ id: 'p1', name: 'Acme Staffing' }, { id: 'p2', name: 'Beta' });
    await turn();
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Acme Staffing' });
    expect(await api.getMany('profiles', ['p2', 'p1', 'p3'])).toEqual([{ id: 'p2', name: 'Beta' }, { id: 'p1', name: 'Acme Staffing' }, null]);
  });

  it('answers the new document within the turn once read-your-writes has seen the commit (projectionStates)', async () => {
    const { file, api, commit } = await twoProcesses();
    await commit({ id: 'p1', name: 'Acme' });
    await turn();
    // One turn (only microtasks in between): the api reads, then the worker commits, as another process would.
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Acme' });
    const worker = new Database(file);
    worker.transaction(() => {
      worker.prepare("UPDATE rm_profiles_g1 SET body = json_set(body, '$.name', 'Acme Staffing') WHERE id = 'p1'").run();
      worker.prepare("UPDATE projection_generations SET checkpoint = 2 WHERE name = 'parties' AND generation = 1").run();
    })();
    worker.close();
    // The turn's stamp still answers the name as of its start...
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Acme' });
    // ...but not once a state query has shown the commit, as read-your-writes does before a write answers.
    const [state] = await api.projectionStates(['parties']);
    expect(state!.checkpoint).toBe(2);
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Acme Staffing' });
  });

  it('answers from memory while the checkpoint stays, and parses a copy for every caller', async () => {
    const { file, worker, api, commit } = await twoProcesses();
    await commit({ id: 'p1', name: 'Acme', tags: ['a'] });
    const first = await api.get<Doc & { tags: string[] }>('profiles', 'p1');
    first!.tags.push('changed by a caller');
    // Changed behind the projection's back (no commit, the checkpoint stays): the api still answers what it read.
    const raw = new Database(file);
    raw.prepare("UPDATE rm_profiles_g1 SET body = json_set(body, '$.name', 'edited') WHERE id = 'p1'").run();
    raw.close();
    await turn();
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Acme', tags: ['a'] });
    // Any commit of the projection moves its checkpoint, a write to another of its collections too: read again.
    await worker.commitProjection({
      projection: 'parties',
      generation: 1,
      checkpoint: 10,
      streamRevisions: {},
      writes: [{ kind: 'put', collection: 'events_seen', doc: { id: 'e' } }],
    });
    await turn();
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'edited', tags: ['a'] });
  });

  it('reads a swapped-in generation (a rebuild), not what the old one held', async () => {
    const { worker, api, commit } = await twoProcesses();
    await commit({ id: 'p1', name: 'Old' });
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Old' });
    const shadow = await worker.createShadowGeneration('parties');
    await worker.commitProjection({
      projection: 'parties',
      generation: shadow,
      checkpoint: 1,
      streamRevisions: {},
      writes: [{ kind: 'put', collection: 'profiles', doc: { id: 'p1', name: 'Rebuilt' } as Doc }],
      shadow: true,
    });
    await worker.activateGeneration('parties', shadow);
    await turn();
    expect(await api.get('profiles', 'p1')).toEqual({ id: 'p1', name: 'Rebuilt' });
  });
});
