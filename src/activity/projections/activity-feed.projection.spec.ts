import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { SqliteEventStore } from '../../platform/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../../platform/read-store/sqlite/sqlite-read-store';
import { applyBatch } from '../../platform/projections/projection-batch';
import { rebuildProjection } from '../../platform/projections/rebuild-projection';
import { ACTIVITY, ActivityDoc, ActivityFeedProjection, activityIdOf } from './activity-feed.projection';

const occurred = (at: string) => ({ correlationId: 'c', causationId: null, actor: 't', occurredAt: at });

describe('ActivityFeedProjection', () => {
  it('ids its lines by log position and company, and a rebuild writes exactly the lines the live path wrote', async () => {
    const dir = tempDir('activity');
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const store = new SqliteReadStore(join(dir, 'read.db'));
    const projection = new ActivityFeedProjection();
    const append = (streamId: string, revision: number, type: string, data: Record<string, unknown>, at: string) =>
      events.append(streamId, [{ id: randomUUID(), type, data, metadata: occurred(at) }], revision === 0 ? 'no_stream' : revision - 1);
    const split = { splitId: 'spl_0000000000000000000001', smeCompanyId: 'co_sme', enterpriseCompanyId: 'co_ent', smeCompanyName: 'Sme', enterpriseCompanyName: 'Ent' };
    await append('split-spl_0000000000000000000001', 0, 'split.created', { ...split, totalAmountCents: '12500', currency: 'USD' }, '2026-01-01T00:00:00.000Z');
    await append('apikey-key_1', 0, 'api_key.issued', { companyId: 'co_sme', keyId: 'key_1', name: 'shop', scopes: ['split:write'] }, '2026-01-01T00:00:01.000Z');
    await append('split-spl_0000000000000000000001', 1, 'split.funded', { splitId: split.splitId }, '2026-01-01T00:00:02.000Z');
    await append(
      'checkout_order-ord_1',
      0,
      'checkout.order.paid',
      { orderId: 'ord_1', merchantCompanyId: 'co_ent', amountMinorUnits: '4999', currency: 'USD', renewal: false },
      '2026-01-01T00:00:03.000Z',
    );
    await append('split-spl_0000000000000000000001', 2, 'split.settled', { splitId: split.splitId }, '2026-01-01T00:00:04.000Z');

    // The live path: one batch per event, as a runner at the head applies them.
    await store.registerProjection(projection.name, projection.collections, projection.version);
    const known = new Map<string, number>();
    let checkpoint: number | null = null;
    for (const event of await events.readAll({ after: 0, maxCount: 100 })) {
      expect(await applyBatch(store, projection, 1, [event], { knownRevisions: known, checkpoint })).toBe('committed');
      checkpoint = event.position;
    }
    const live = await store.find<ActivityDoc>(ACTIVITY, { sort: [{ field: 'id', direction: 'asc' }] });
    expect(live.map((doc) => doc.id)).toEqual([
      activityIdOf(1, 'co_ent'),
      activityIdOf(1, 'co_sme'),
      activityIdOf(2, 'co_sme'),
      activityIdOf(3, 'co_ent'),
      activityIdOf(3, 'co_sme'),
      activityIdOf(4, 'co_ent'),
      activityIdOf(5, 'co_ent'),
      activityIdOf(5, 'co_sme'),
    ]);
    expect(activityIdOf(3, 'co_sme')).toBe('0000000000000003:co_sme');
    // Ids sort as positions do: the id index takes a batch's lines as appends.
    expect(live.map((doc) => doc.position)).toEqual([...live.map((doc) => doc.position)].sort((a, b) => a - b));

    const { generation } = await rebuildProjection(events, store, projection, { nowMs: () => Date.now(), batchSize: 2 });
    expect(generation).toBe(2);
    expect(await store.find<ActivityDoc>(ACTIVITY, { sort: [{ field: 'id', direction: 'asc' }] })).toEqual(live);
    await events.close();
    await store.close();
  });
});
