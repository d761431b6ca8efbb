import { randomUUID } from 'node:crypto';
import { CommandStartedEvent, MongoClient } from 'mongodb';
import { OPERATIONAL_LIST_INDEX } from '../../src/platform/read-store/mongo/mongo-queries';
import { MongoReadStore } from '../../src/platform/read-store/mongo/mongo-read-store';
import { registered, unique } from './contract-names';

/**
 * What the port contracts cannot see from outside, checked on the server itself (issue 14): reads made
 * inside a commit's transaction carry its session, and the operational list query is served by its
 * index without an in-memory sort. Runs only with MONGO_URL (a replica set, see docker/README.md).
 */
const url = process.env.MONGO_URL;
const suite = url ? describe : describe.skip;

suite('MongoDB read store internals (needs MONGO_URL)', () => {
  const dbName = `paysplit_internals_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const commands: CommandStartedEvent[] = [];
  let writer: MongoReadStore;
  let raw: MongoClient;

  beforeAll(async () => {
    writer = await MongoReadStore.connect(url!, dbName);
    raw = await MongoClient.connect(url!);
  });
  afterAll(async () => {
    await writer?.dropDatabase();
    await writer?.close();
    await raw?.close();
  });

  it('reads the collection registry inside the commit transaction when its owner cache is cold', async () => {
    const { projection, collection } = await registered(writer);
    // A second store knows nothing yet: its first commit must look the owner up, inside the transaction.
    const cold = await MongoReadStore.connect(url!, dbName, { monitorCommands: true });
    try {
      // The store keeps its client private; a test may look, to listen to the commands it sends.
      const client = (cold as unknown as { client: MongoClient }).client;
      client.on('commandStarted', (event) => commands.push(event));
      const outcome = await cold.commitProjection({ projection, generation: 1, checkpoint: 1, streamRevisions: {}, writes: [{ kind: 'put', collection, doc: { id: 'a' } }] });
      expect(outcome).toBe('committed');
    } finally {
      await cold.close();
    }
    const lookups = commands.filter((c) => c.commandName === 'find' && c.command.find === 'projection_collections');
    expect(lookups.length).toBeGreaterThan(0);
    for (const lookup of lookups) {
      expect(lookup.command.lsid).toBeDefined();
      expect(lookup.command.txnNumber).toBeDefined();
    }
  });

  it('lists operational documents through the (_id.collection, _id.id) index, with no in-memory sort', async () => {
    const collection = unique('ops');
    for (const id of ['c', 'a', 'b']) await writer.putOperational(collection, { id });
    expect((await writer.listOperational<{ id: string }>(collection, 10)).map((d) => d.id)).toEqual(['a', 'b', 'c']);
    const plan = await raw.db(dbName).collection('operational').find({ '_id.collection': collection }).sort({ '_id.id': 1 }).hint(OPERATIONAL_LIST_INDEX).explain('queryPlanner');
    const winning = JSON.stringify(plan.queryPlanner.winningPlan);
    expect(winning).toContain('IXSCAN');
    expect(winning).not.toMatch(/"stage":"SORT"/);
  });
});
