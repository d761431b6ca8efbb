import { DeliveryAttemptRecord, NewDelivery, WebhookDeliveryStore } from '../../src/webhooks/application/webhook-delivery-store.port';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

function delivery(id: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id,
    endpointId: 'we_1',
    companyId: 'co_1',
    eventId: `evt_${id}`,
    eventType: 'split.leg_a.approved',
    body: `{"data":{"splitId":"spl_${id}"},"id":"evt_${id}"}`,
    createdAt: T0,
    nextAttemptAt: T0,
    ...overrides,
  };
}

function attempt(n: number, succeeded: boolean, seconds = 0): DeliveryAttemptRecord {
  return {
    attempt: n,
    attemptedAt: at(seconds),
    succeeded,
    responseStatus: succeeded ? 200 : 500,
    latencyMs: 3,
    error: succeeded ? null : 'HTTP 500',
    signedAt: '1767225600',
    signature: 'ab'.repeat(32),
  };
}

/**
 * Webhook deliveries as operational rows, claimed with a lease. Every adapter must pass it: SQLite
 * always, MongoDB when MONGO_URL is set. `open` gives a fresh, empty store each time.
 */
export function webhookDeliveryStoreContract(name: string, open: () => Promise<WebhookDeliveryStore>): void {
  describe(`WebhookDeliveryStore contract: ${name}`, () => {
    let store: WebhookDeliveryStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });
    const claimIds = async (now: string, owner: string, nowMs: number, limit = 100, skip: string[] = []) =>
      (await store.claimDue(now, owner, nowMs, 1_000, limit, skip)).map((d) => d.id);

    it('creates idempotently on id and reads a delivery back whole', async () => {
      await store.createDeliveries([delivery('d1')]);
      await store.createDeliveries([delivery('d1', { body: '{"other":true}', nextAttemptAt: null })]);
      expect(await store.get('d1')).toEqual({
        id: 'd1',
        endpointId: 'we_1',
        companyId: 'co_1',
        eventId: 'evt_d1',
        eventType: 'split.leg_a.approved',
        body: '{"data":{"splitId":"spl_d1"},"id":"evt_d1"}',
        status: 'pending',
        attempts: [],
        lastAttempt: 0,
        seriesStart: 1,
        nextAttemptAt: T0,
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await store.get('missing')).toBeNull();
    });

    it('creates a delivery already claimed: says which ids it created, and no one else claims it before the claim runs out', async () => {
      await store.createDeliveries([delivery('old')]);
      const created = await store.createDeliveries([
        { ...delivery('handed'), claim: { owner: 'w1', untilMs: 2_000 } },
        { ...delivery('old'), claim: { owner: 'w1', untilMs: 2_000 } },
      ]);
      expect(created).toEqual(['handed']);
      // 'old' existed: it is not claimed by the second create, so it is claimable; 'handed' is w1's.
      expect(await claimIds(at(1), 'w2', 1_000)).toEqual(['old']);
      expect(await store.nextDueAt()).toBe(T0);
      expect(await store.queueCounts()).toEqual({ queued: 2, failed: 0 });
      expect(await claimIds(at(1), 'w2', 1_999)).toEqual([]);
      const done = { deliveryId: 'handed', attempt: attempt(1, true), status: 'succeeded' as const, nextAttemptAt: null };
      expect(await store.recordAttempts('w1', [done], at(1))).toEqual(['handed']);
      expect(await store.createDeliveries([{ ...delivery('lost'), claim: { owner: 'w1', untilMs: 2_000 } }])).toEqual(['lost']);
      // At 2,000 ms w1's claim of 'lost' and w2's own claim of 'old' (1 s leases) have both run out.
      expect(await claimIds(at(1), 'w3', 2_000)).toEqual(['lost', 'old']);
    });

    it('claims due deliveries earliest first, up to the limit, and each only once while the claim lasts', async () => {
      await store.createDeliveries([
        delivery('late', { nextAttemptAt: at(5) }),
        delivery('early'),
        delivery('future', { nextAttemptAt: at(60) }),
        delivery('never', { nextAttemptAt: null }),
      ]);
      expect(await claimIds(at(10), 'w1', 1_000, 1)).toEqual(['early']);
      expect(await claimIds(at(10), 'w2', 1_500)).toEqual(['late']);
      expect(await claimIds(at(10), 'w2', 1_999)).toEqual([]);
      // w1's claim of 'early' ran out at 2,000 ms: another worker takes it over.
      expect(await claimIds(at(10), 'w2', 2_000)).toEqual(['early']);
      expect(await store.nextDueAt()).toBe(T0);
    });

    it('leaves out the endpoints it is told to skip', async () => {
      await store.createDeliveries([delivery('a', { endpointId: 'we_busy' }), delivery('b', { endpointId: 'we_free' })]);
      expect(await claimIds(at(1), 'w1', 1_000, 100, ['we_busy'])).toEqual(['b']);
      expect(await claimIds(at(1), 'w1', 1_000, 100, [])).toEqual(['a']);
    });

    it('records an attempt only for the claim holder and only as the next attempt, then frees the claim', async () => {
      await store.createDeliveries([delivery('d1')]);
      await claimIds(at(0), 'w1', 1_000);
      const failed = { deliveryId: 'd1', attempt: attempt(1, false), status: 'pending' as const, nextAttemptAt: at(300) };
      expect(await store.recordAttempts('w2', [failed], at(1))).toEqual([]);
      expect(await store.recordAttempts('w1', [failed], at(1))).toEqual(['d1']);
      expect(await store.recordAttempts('w1', [failed], at(1))).toEqual([]);
      expect(await store.get('d1')).toMatchObject({ status: 'pending', lastAttempt: 1, nextAttemptAt: at(300), attempts: [attempt(1, false)], updatedAt: at(1) });
      expect(await claimIds(at(299), 'w1', 1_100)).toEqual([]);
      expect(await claimIds(at(300), 'w3', 1_100)).toEqual(['d1']);
      const stale = { deliveryId: 'd1', attempt: attempt(1, true), status: 'succeeded' as const, nextAttemptAt: null };
      expect(await store.recordAttempts('w3', [stale], at(301))).toEqual([]);
      const second = { deliveryId: 'd1', attempt: attempt(2, true, 301), status: 'succeeded' as const, nextAttemptAt: null };
      expect(await store.recordAttempts('w3', [second], at(301))).toEqual(['d1']);
      expect(await store.get('d1')).toMatchObject({ status: 'succeeded', lastAttempt: 2, nextAttemptAt: null, attempts: [attempt(1, false), attempt(2, true, 301)] });
      expect(await store.nextDueAt()).toBeNull();
    });

    it('records a batch in one call and says which attempts were taken', async () => {
      await store.createDeliveries([delivery('d1'), delivery('d2'), delivery('d3')]);
      await claimIds(at(0), 'w1', 1_000, 2);
      const done = (id: string) => ({ deliveryId: id, attempt: attempt(1, true), status: 'succeeded' as const, nextAttemptAt: null });
      expect((await store.recordAttempts('w1', [done('d1'), done('d2'), done('d3')], at(1))).sort()).toEqual(['d1', 'd2']);
      expect((await store.get('d3'))!.status).toBe('pending');
    });

    it('gives claims back: due again at once, or skipped (not due any more, still pending)', async () => {
      await store.createDeliveries([delivery('again'), delivery('skipped')]);
      await claimIds(at(0), 'w1', 1_000);
      await store.release('w2', [{ deliveryId: 'again', keepDue: true }], at(1));
      expect(await claimIds(at(0), 'w2', 1_001)).toEqual([]);
      await store.release(
        'w1',
        [
          { deliveryId: 'again', keepDue: true },
          { deliveryId: 'skipped', keepDue: false },
        ],
        at(1),
      );
      expect(await claimIds(at(0), 'w2', 1_001)).toEqual(['again']);
      expect(await store.get('skipped')).toMatchObject({ status: 'pending', nextAttemptAt: null, lastAttempt: 0 });
      expect(await claimIds(at(3600), 'w2', 10_000)).toEqual(['again']);
    });

    it('claims one delivery by id whatever its due time, not while another holds it', async () => {
      await store.createDeliveries([delivery('test', { nextAttemptAt: null })]);
      expect(await store.claim('test', 'w1', 1_000, 1_000)).toMatchObject({ id: 'test', lastAttempt: 0 });
      expect(await store.claim('test', 'w2', 1_500, 1_000)).toBeNull();
      expect(await store.claim('missing', 'w2', 1_500, 1_000)).toBeNull();
      expect(await store.recordAttempts('w1', [{ deliveryId: 'test', attempt: attempt(1, true), status: 'succeeded', nextAttemptAt: null }], at(1))).toEqual(['test']);
      expect(await store.claim('test', 'w2', 5_000, 1_000)).toBeNull();
    });

    it('restarts a retry series unless an attempt was recorded since the caller read the delivery', async () => {
      await store.createDeliveries([delivery('d1')]);
      await claimIds(at(0), 'w1', 1_000);
      await store.recordAttempts('w1', [{ deliveryId: 'd1', attempt: attempt(1, false), status: 'failed', nextAttemptAt: null }], at(1));
      expect(await store.restartSeries('d1', 0, 1, at(50), 'user:u1')).toBe(false);
      expect(await store.restartSeries('d1', 1, 2, at(50), 'user:u1')).toBe(true);
      expect(await store.get('d1')).toMatchObject({ status: 'pending', seriesStart: 2, lastAttempt: 1, nextAttemptAt: at(50), updatedAt: at(50) });
      expect(await claimIds(at(50), 'w1', 2_000)).toEqual(['d1']);
      expect(await store.restartSeries('missing', 0, 1, at(50), 'user:u1')).toBe(false);
    });

    it('lists an endpoint newest first with status, event type and time filters, counts the same, and deletes its rows', async () => {
      await store.createDeliveries([
        delivery('d1', { createdAt: at(1) }),
        delivery('d2', { createdAt: at(2), eventType: 'split.leg_a.rejected' }),
        delivery('d3', { createdAt: at(3) }),
        delivery('d4', { createdAt: at(3) }),
        delivery('other', { createdAt: at(4), endpointId: 'we_2' }),
      ]);
      await claimIds(at(10), 'w1', 1_000);
      await store.recordAttempts('w1', [{ deliveryId: 'd1', attempt: attempt(1, false), status: 'failed', nextAttemptAt: null }], at(5));
      const ids = async (filter: Parameters<WebhookDeliveryStore['list']>[0], skip = 0, limit = 10) => (await store.list(filter, skip, limit)).map((d) => d.id);
      expect(await ids({ endpointId: 'we_1' })).toEqual(['d4', 'd3', 'd2', 'd1']);
      expect(await ids({ endpointId: 'we_1' }, 1, 2)).toEqual(['d3', 'd2']);
      expect(await ids({ endpointId: 'we_1', status: 'failed' })).toEqual(['d1']);
      expect(await ids({ endpointId: 'we_1', eventType: 'split.leg_a.rejected' })).toEqual(['d2']);
      expect(await ids({ endpointId: 'we_1', from: at(2), to: at(3) })).toEqual(['d4', 'd3', 'd2']);
      expect(await store.count({ endpointId: 'we_1', from: at(2) })).toBe(3);
      expect(await store.queueCounts()).toEqual({ queued: 4, failed: 1 });
      expect(await store.deleteForEndpoint('we_1')).toBe(4);
      expect(await ids({ endpointId: 'we_1' })).toEqual([]);
      expect(await ids({ endpointId: 'we_2' })).toEqual(['other']);
    });

    it("keeps the dispatcher's mark, which only moves forward (a late or repeated mark never rewinds it)", async () => {
      // A new SQLite file starts at 0 (nothing dispatched); a new MongoDB database has no mark yet.
      expect([0, null]).toContain(await store.dispatchedThrough());
      await store.markDispatched(10);
      await store.markDispatched(5);
      expect(await store.dispatchedThrough()).toBe(10);
      await store.markDispatched(12);
      expect(await store.dispatchedThrough()).toBe(12);
    });
  });
}
