import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp } from '../support/test-app';
import { tempDir } from '../support/temp-dir';
import { legacyReads, LegacyWorld, signIn } from '../fixtures/legacy-scenario';
import { dataOf, uniqueEmail } from '../support/split-fixtures';
import { CHECKOUT_ORDER_COUNTS, OrderCountsView } from '../../src/checkout/projections/checkout-order-counts';
import { CHECKOUT_ORDERS, OrderView } from '../../src/checkout/projections/checkout-read-model.projection';

/**
 * Data written by an earlier version keeps working (DESIGN section 15, "Old data keeps working"): each
 * data dir under test/fixtures/legacy-data-* was written by test/fixtures/write-legacy-fixture.run.ts with
 * the version of its date. This build starts on a copy, answers what that version answered (new fields
 * may be added, none changed), passes ledger:verify, and answers the same again after a full rebuild.
 */
const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/src/cli.js');
const FIXTURES = join(ROOT, 'test/fixtures');
const dirs = readdirSync(FIXTURES).filter((name) => name.startsWith('legacy-data-'));

/** Fields that depend on where the service listens, not on the data. */
const withoutAddresses = (answers: Record<string, any>) => {
  const { embedUrl: _embedUrl, ...session } = answers.payoutEmbedSession;
  return { ...answers, payoutEmbedSession: session };
};

const cli = (dataDir: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, SANDBOX: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });

describe.each(dirs)('a data dir written by an earlier version (%s)', (dir) => {
  const world = JSON.parse(readFileSync(join(FIXTURES, dir, 'world.json'), 'utf8')) as LegacyWorld;
  const recorded = withoutAddresses(JSON.parse(readFileSync(join(FIXTURES, dir, 'answers.json'), 'utf8')));
  const dataDir = tempDir('legacy');
  beforeAll(() => cpSync(join(FIXTURES, dir, 'data'), dataDir, { recursive: true }));

  const readsNow = async () => {
    const app = await startTestApp({ DATA_DIR: dataDir });
    try {
      return await legacyReads(app, world);
    } finally {
      await app.close();
    }
  };

  it('starts and answers what the earlier version answered', async () => {
    expect(await readsNow()).toMatchObject(recorded);
  });

  it("books its old orders' checkout money as the merchant's balance transactions without a manual rebuild", async () => {
    const app = await startTestApp({ DATA_DIR: dataDir });
    try {
      // Only the projections catch up (no sandbox clock settle: nothing else may change before the later checks).
      await app.platform.engine.waitForHead(20_000);
      const response = await app.request('GET', '/api/commerce/balance-transactions?limit=100', { token: world.merchantApiKey });
      expect(response.status).toBe(200);
      const rows = response.body.data as { type: string; source: string; account: string }[];
      expect(rows.filter((r) => r.source === world.orderId).map((r) => r.type)).toEqual(expect.arrayContaining(['checkout_capture', 'checkout_payout', 'checkout_payout_paid']));
    } finally {
      await app.close();
    }
  });

  it("keeps its old orders' counts for the order list's total without a manual rebuild (the checkout projection's version rose)", async () => {
    const app = await startTestApp({ DATA_DIR: dataDir });
    try {
      await app.platform.engine.waitForHead(20_000);
      expect(await app.platform.readStore.projectionState('checkout')).toMatchObject({ version: 2 });
      const merchant = await signIn(app, world.merchantEmail);
      for (const query of ['', '?status=PAID', '?status=OPEN']) {
        const response = await app.request('GET', `/api/commerce/checkout/orders${query}`, { token: merchant });
        expect({ query, total: response.body.meta.total }).toEqual({ query, total: dataOf(response, 200).length });
      }
      const paid = await app.request('GET', '/api/commerce/checkout/orders?status=PAID', { token: merchant });
      const order = await app.platform.readStore.get<OrderView>(CHECKOUT_ORDERS, world.orderId);
      // The totals come from the rebuilt counts, not from a COUNT over the orders.
      expect(await app.platform.readStore.get<OrderCountsView>(CHECKOUT_ORDER_COUNTS, order!.merchantCompanyId)).toMatchObject({ statuses: { PAID: paid.body.meta.total } });
      expect(paid.body.meta.total).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it("books its old Splits' ledger lines as balance transactions without a manual rebuild (the ledger projection's version rose)", async () => {
    const app = await startTestApp({ DATA_DIR: dataDir });
    try {
      // The stored ledger read model was built by version 1 (no lines): it is rebuilt at start, and waits count it as behind until then.
      await app.platform.engine.waitForHead(20_000);
      const response = await app.request('GET', '/api/commerce/balance-transactions?limit=100', { token: world.smeApiKey });
      expect(response.status).toBe(200);
      const rows = response.body.data as { type: string; source: string }[];
      expect(rows.filter((r) => r.source === world.splitId).map((r) => r.type)).toContain('funding');
      expect(await app.platform.readStore.projectionState('ledger')).toMatchObject({ version: 2 });
    } finally {
      await app.close();
    }
  });

  // Issue 30: "existing single-user companies keep working (their user is the owner)". The 2026-11-26 data dirs
  // were written before roles existed (no member event in their log): the owner is derived from user.registered.
  // On a copy of its own, so the writes below do not touch the data the recorded answers are compared on.
  it("signs each company's one user in as its owner: /api/auth/me, the members list, the last-owner rule and an owner-only invitation", async () => {
    const ownDir = tempDir('legacy-owner');
    cpSync(join(FIXTURES, dir, 'data'), ownDir, { recursive: true });
    const app = await startTestApp({ DATA_DIR: ownDir });
    try {
      await app.platform.engine.waitForHead(20_000);
      for (const email of [world.smeEmail, world.enterpriseEmail, world.merchantEmail]) {
        const token = await signIn(app, email);
        const me = dataOf(await app.request('GET', '/api/auth/me', { token }), 200);
        expect(me).toMatchObject({ role: 'owner', companies: [{ companyId: me.companyId, role: 'owner' }] });
        const members = dataOf(await app.request('GET', '/api/commerce/members', { token }), 200);
        expect(members).toEqual([expect.objectContaining({ userId: me.userId, email, role: 'owner' })]);
        // The members decider counts it as the company's only owner too: it may not step down (nothing changes).
        const stepDown = await app.request('PATCH', `/api/commerce/members/${me.userId}`, { token, body: { role: 'admin' } });
        expect({ email, status: stepDown.status, code: stepDown.body?.error?.code }).toEqual({ email, status: 409, code: 'LAST_OWNER' });
        const invited = await app.request('POST', '/api/commerce/members', { token, body: { email: uniqueEmail('legacy-invitee'), role: 'finance' } });
        expect({ email, status: invited.status, body: invited.body }).toMatchObject({ email, status: 201, body: { data: { role: 'finance', status: 'pending' } } });
      }
    } finally {
      await app.close();
    }
  });

  it('passes ledger:verify', () => {
    const verified = cli(dataDir, 'ledger:verify');
    expect(verified.stdout).toContain('ledger OK');
    expect(verified.status).toBe(0);
  });

  it('answers the same after every projection is rebuilt', async () => {
    const rebuilt = cli(dataDir, 'projections:rebuild', '--all');
    expect(rebuilt.status).toBe(0);
    expect(await readsNow()).toMatchObject(recorded);
  });
});

it('keeps at least one legacy data dir', () => {
  expect(dirs.length).toBeGreaterThan(0);
});
