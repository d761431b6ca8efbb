import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { verifyStatements } from '../../src/ledger/application/statement-verifier';
import { replayLedger, verifyLedger } from '../../src/ledger/application/ledger-verifier';
import { CompanyBalanceDoc, LEDGER_COMPANY_BALANCES, LedgerProjection } from '../../src/ledger/projections/ledger.projection';
import { StagedWriter } from '../../src/platform/projections/staged-writer';
import { DocumentReader } from '../../src/platform/read-store/document-store.port';
import { embedCall, latestCode, SESSIONS, sessionBody, topUp } from '../support/payout-embed-fixtures';
import { createdSplit, creatorRow, dataOf, issueApiKey, newIdempotencyKey, outbox, setupSplitWorld, SplitWorld, subVendorRow } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const CLI = join(__dirname, '../../dist/src/cli.js');

/** The checkout fields of GET /api/commerce/balance (issue 26) for a company that sold nothing by checkout. */
const NO_CHECKOUT_MONEY = { checkoutBalanceCents: '0', checkoutPayoutsInTransitCents: '0', checkoutPaidOutCents: '0' };

/**
 * The books (issue 28): balance transactions, balances as of a time, statements and their CSV, over
 * HTTP on a world with a top-up, a Split (instant and net-terms rows, a margin), Payout Embed sessions
 * (one paid, one expired) and net terms reached.
 */
describe('books: balance transactions, balances as of a time, statements', () => {
  let app: TestApp;
  let world: SplitWorld;
  let payoutKey: string;
  let readKey: string;
  const instants: string[] = [];

  const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200).now as string;
  /** A moment between two steps: the clock moves a second on both sides of it, so no event shares it. */
  const mark = async () => {
    await advance(1);
    const now = dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
    instants.push(new Date(Date.parse(now) - 500).toISOString());
    await advance(1);
  };
  const get = (path: string, headers: Record<string, string> = {}) => app.request('GET', path, { token: readKey, headers });

  /** Every page of balance transactions, walking the cursor. */
  async function walk(query: string, limit = 3, after?: string): Promise<any[]> {
    const rows: any[] = [];
    let cursor = after ? `&cursor=${after}` : '';
    for (;;) {
      const page = dataOf(await get(`/api/commerce/balance-transactions?limit=${limit}${query}${cursor}`), 200);
      rows.push(...page);
      if (page.length < limit) return rows;
      cursor = `&cursor=${page[page.length - 1].id}`;
    }
  }

  /** The company's balance at `asOf` by replaying the log up to it through the ledger projection in memory. */
  async function replayedBalance(companyId: string, asOf: string) {
    const projection = new LedgerProjection();
    const writer = new StagedWriter(NOTHING);
    for (let after: number | undefined; ;) {
      const batch = await app.platform.events.readAll({ after, maxCount: 1000 });
      if (batch.length === 0) break;
      for (const event of batch) if (event.metadata.occurredAt <= asOf && projection.handles(event)) await projection.apply(event, writer);
      after = batch[batch.length - 1]!.position;
    }
    const docs = await writer.find<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, { filter: { companyId }, sort: [{ field: 'currency', direction: 'asc' }] });
    return docs.map((d) => ({
      currency: d.currency,
      availableCents: (BigInt(d.balanceCents) - BigInt(d.committedCents)).toString(),
      reservedCents: d.reservedCents,
      owedToContractorsCents: d.committedCents,
      marginHeldCents: d.marginHeldCents ?? '0',
      reservedForFeesCents: d.feeReservedCents ?? '0',
      // This world sells nothing by checkout (issue 26's fields).
      ...NO_CHECKOUT_MONEY,
    }));
  }

  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app, { sme: 'Books Staffing', enterprise: 'Books Globex' });
    payoutKey = await issueApiKey(app, world.sme.sessionToken, ['payout:write'], 'payouts');
    readKey = await issueApiKey(app, world.sme.sessionToken, ['payout:write'], 'reader');
    await mark();
    await topUp(app, world.sme.sessionToken, '20000');
    await mark();
    // Total 60000: an instant row of 30000 whose 450 fee the SME covers, a net-terms row of 20000, margin 10000.
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('books'),
      totalAmountCents: '60000',
      roster: [creatorRow(world.creator, '30000', { earlyPayoutElected: true, businessCoversFee: true }), subVendorRow(world.plainVendor, '20000')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    await mark();
    // Two Payout Embed sessions: one claimed and paid, one left to expire.
    const paid = dataOf(await app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents: '2500' }) }), 201);
    dataOf(await app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents: '1500', recipientEmail: 'bo@example.com' }) }), 201);
    dataOf(await embedCall(app, paid, 'POST', '/code'), 200);
    dataOf(await embedCall(app, paid, 'POST', '/claim', { code: await latestCode(app, paid.recipientEmail) }), 200);
    dataOf(await embedCall(app, paid, 'POST', '/wallet', { walletEmail: 'ann@wallet.example' }), 200);
    await app.eventCount();
    await mark();
    // Net terms: the margin is released, the net-terms row transfers, the unclaimed session expires.
    await advance(31 * 86_400);
    await app.eventCount();
    await mark();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists every line on the company accounts, newest first, and they add up to the balance', async () => {
    const rows = await walk('');
    expect(rows.length).toBeGreaterThan(8);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.account.endsWith(`:${world.sme.companyId}`)).toBe(true);
      expect(row).toEqual({
        id: expect.stringMatching(/^bt_\d+_\d+$/),
        account: expect.any(String),
        accountType: row.account.split(':')[0],
        currency: 'USD',
        amountCents: expect.stringMatching(/^-?\d+$/),
        balanceAfterCents: expect.stringMatching(/^-?\d+$/),
        type: expect.any(String),
        source: expect.stringMatching(/^(spl|dst|pes|po|top)_/),
        postingId: expect.any(String),
        eventId: expect.any(String),
        postedAt: expect.any(String),
        description: expect.any(String),
      });
    }
    const types = new Set(rows.map((r) => r.type));
    for (const type of ['top_up', 'funding', 'row_transfer', 'margin_release', 'payout_reserve', 'payout_paid', 'payout_release', 'sme_fee_cover_from_margin', 'sme_fee_paid'])
      expect(types).toContain(type);
    // Per account: oldest to newest, each balance is the one before plus the amount; the sum is the balance.
    const sums = new Map<string, bigint>();
    for (const row of [...rows].reverse()) {
      const balance = (sums.get(row.account) ?? 0n) + BigInt(row.amountCents);
      expect(BigInt(row.balanceAfterCents)).toBe(balance);
      sums.set(row.account, balance);
    }
    const sum = (type: string) => (sums.get(`${type}:${world.sme.companyId}`) ?? 0n).toString();
    const [balance] = dataOf(await get('/api/commerce/balance'), 200);
    expect(balance).toEqual({
      currency: 'USD',
      availableCents: (BigInt(sum('company_balance')) - BigInt(balance.owedToContractorsCents)).toString(),
      reservedCents: sum('payout_reserve'),
      owedToContractorsCents: '0',
      marginHeldCents: sum('sme_margin_hold'),
      reservedForFeesCents: sum('sme_fee_reserve'),
      ...NO_CHECKOUT_MONEY,
    });
    // Top-up 20000 + the margin 10000 less the 450 fee it covered - 2500 paid (the expired 1500 came back).
    expect(balance.availableCents).toBe('27050');
  });

  it('filters by type, account, source and time, and a walk stays whole while new lines arrive', async () => {
    const all = await walk('', 100);
    const transfers = await walk('&type=row_transfer');
    expect(transfers).toEqual(all.filter((r) => r.type === 'row_transfer'));
    const reserve = await walk('&account=payout_reserve');
    expect(reserve).toEqual(all.filter((r) => r.accountType === 'payout_reserve'));
    const splitId = all.find((r) => r.type === 'funding').source;
    expect(await walk(`&source=${splitId}`)).toEqual(all.filter((r) => r.source === splitId));
    const window = await walk(`&from=${instants[1]}&to=${instants[3]}`);
    expect(window).toEqual(all.filter((r) => r.postedAt >= instants[1]! && r.postedAt < instants[3]!));
    expect(window.length).toBeGreaterThan(0);

    // A walk that started before new lines arrived: they come before its first page, never inside it.
    const first = dataOf(await get('/api/commerce/balance-transactions?limit=4'), 200);
    await topUp(app, world.sme.sessionToken, '111');
    await app.eventCount();
    const rest = await walk('', 3, first[first.length - 1].id);
    expect([...first, ...rest]).toEqual(all);
    expect(dataOf(await get('/api/commerce/balance-transactions?limit=1'), 200)[0]).toMatchObject({ type: 'top_up', amountCents: '111' });

    const bad = await get('/api/commerce/balance-transactions?cursor=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect((await get(`/api/commerce/balance-transactions?from=${instants[3]}&to=${instants[1]}`)).status).toBe(400);
  });

  it('answers the balance as of several instants as a replay of the log up to each', async () => {
    for (const asOf of instants) {
      const answered = dataOf(await get(`/api/commerce/balance?asOf=${encodeURIComponent(asOf)}`), 200);
      expect(answered).toEqual(await replayedBalance(world.sme.companyId, asOf));
    }
    expect(dataOf(await get(`/api/commerce/balance?asOf=${instants[0]}`), 200)).toEqual([]);
    expect(dataOf(await get(`/api/commerce/balance?asOf=${instants[1]}`), 200)[0]).toMatchObject({ availableCents: '20000' });
  });

  it('gives statements whose opening plus lines is the closing, period after period', async () => {
    const periods = [...instants.slice(0, -1).map((from, i) => [from, instants[i + 1]!]), [instants[0]!, instants[instants.length - 1]!]];
    const closingOf = new Map<string, string>();
    for (const [from, to] of periods) {
      const statements = dataOf(await get(`/api/commerce/statements?from=${from}&to=${to}`), 200);
      for (const s of statements) {
        expect(s.account.endsWith(`:${world.sme.companyId}`)).toBe(true);
        const sum = s.lines.reduce((total: bigint, line: any) => total + BigInt(line.amountCents), 0n);
        expect(BigInt(s.openingBalanceCents) + sum).toBe(BigInt(s.closingBalanceCents));
        expect(s.netChangeCents).toBe(sum.toString());
        const byType = new Map<string, bigint>();
        for (const line of s.lines) byType.set(line.type, (byType.get(line.type) ?? 0n) + BigInt(line.amountCents));
        expect(s.totals.map((t: any) => [t.type, t.amountCents])).toEqual([...byType].sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, a]) => [t, a.toString()]));
        // Consecutive periods chain: a period opens where the one before closed.
        if (from !== instants[0] && to !== instants[instants.length - 1]) expect(s.openingBalanceCents).toBe(closingOf.get(s.account) ?? '0');
        closingOf.set(s.account, s.closingBalanceCents);
      }
    }
    const one = dataOf(await get(`/api/commerce/statements?account=company_balance&currency=USD&from=${instants[0]}&to=${instants[2]}`), 200);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ account: `company_balance:${world.sme.companyId}`, openingBalanceCents: '0' });
    expect((await get('/api/commerce/statements?from=2026-01-01T00:00:00Z')).status).toBe(400);
  });

  it('exports balance transactions and statements as CSV that parses into the JSON rows', async () => {
    const json = await walk('', 100);
    const response = await get('/api/commerce/balance-transactions', { accept: 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.text.includes('\r\n')).toBe(true);
    const records: Record<string, string>[] = parse(response.text, { columns: true });
    expect(records).toEqual(
      json.map((r) => ({
        id: r.id,
        postedAt: r.postedAt,
        account: r.account,
        accountType: r.accountType,
        type: r.type,
        source: r.source,
        currency: r.currency,
        amount: decimal(r.amountCents),
        amountCents: r.amountCents,
        balanceAfter: decimal(r.balanceAfterCents),
        balanceAfterCents: r.balanceAfterCents,
        postingId: r.postingId,
        eventId: r.eventId,
        description: r.description,
      })),
    );
    const statements = dataOf(await get(`/api/commerce/statements?from=${instants[0]}&to=${instants[4]}`), 200);
    const csv: Record<string, string>[] = parse((await get(`/api/commerce/statements?from=${instants[0]}&to=${instants[4]}`, { accept: 'text/csv' })).text, { columns: true });
    expect(csv.filter((r) => r.row === 'line').map((r) => [r.account, r.id, r.amountCents, r.balanceCents])).toEqual(
      statements.flatMap((s: any) => s.lines.map((l: any) => [s.account, l.id, l.amountCents, l.balanceAfterCents])),
    );
    expect(csv.filter((r) => r.row === 'closing').map((r) => [r.account, r.balanceCents])).toEqual(statements.map((s: any) => [s.account, s.closingBalanceCents]));
  });

  it('shows a contractor its own lines only, adding up to its earnings, with statements and CSV', async () => {
    const link = (await outbox(app)).find((message) => message.to === world.creator.email)!.link;
    const signedIn = dataOf(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } }), 200);
    const me = (path: string, headers: Record<string, string> = {}) => app.request('GET', path, { token: signedIn.sessionToken, headers });
    const rows = dataOf(await me('/api/commerce/me/balance-transactions?limit=100'), 200);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r: any) => r.account === `contractor_balance:${world.creator.paymentProfileId}` || r.account.endsWith(`:${signedIn.userId}`))).toBe(true);
    const held = rows.filter((r: any) => r.accountType === 'contractor_balance').reduce((sum: bigint, r: any) => sum + BigInt(r.amountCents), 0n);
    const earnings = dataOf(await me('/api/commerce/me/earnings'), 200);
    expect(earnings.balances).toEqual([{ currency: 'USD', availableCents: held.toString(), owedCents: '0' }]);
    const [statement] = dataOf(await me(`/api/commerce/me/statements?account=contractor_balance&from=${instants[0]}&to=2100-01-01T00:00:00Z`), 200);
    expect(statement).toMatchObject({ openingBalanceCents: '0', closingBalanceCents: held.toString() });
    const csv: Record<string, string>[] = parse((await me('/api/commerce/me/balance-transactions', { accept: 'text/csv' })).text, { columns: true });
    expect(csv.map((r) => [r.id, r.amountCents])).toEqual(rows.map((r: any) => [r.id, r.amountCents]));
    // The SME's key never sees the contractor's accounts, nor the contractor the SME's.
    expect((await walk('', 100)).some((r) => r.accountType.startsWith('contractor'))).toBe(false);
  });

  it('keeps the ledger verified, statements included', async () => {
    const { postings, splits, lines } = await replayLedger(app.platform.events);
    expect(verifyLedger(postings, splits).violations).toEqual([]);
    const books = verifyStatements(lines, postings);
    expect(books.violations).toEqual([]);
    expect(books.statements).toBe(books.accounts * 5);
    expect(books.lines).toBe(postings.reduce((n, p) => n + p.entries.length, 0));
  });

  it('ledger:export writes CSV whose totals tie to ledger:verify, for the whole ledger and for one company', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    const verify = run('ledger:verify');
    expect(verify.status).toBe(0);
    const verifiedTotals = /^totals: (.*)$/m.exec(verify.stdout)![1];
    const all = run('ledger:export', '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z');
    expect(all.status).toBe(0);
    expect(/^totals: (.*)$/m.exec(all.stderr)![1]).toBe(verifiedTotals);
    const rows: Record<string, string>[] = parse(all.stdout, { columns: true });
    const credits = rows.reduce((sum, r) => sum + (BigInt(r.amountCents!) > 0n ? BigInt(r.amountCents!) : 0n), 0n);
    expect(verifiedTotals).toContain(`USD ${rows.length} lines, debits ${credits}, credits ${credits}`);
    const mine = run('ledger:export', '--company', world.sme.companyId, '--from', instants[0]!, '--to', '2100-01-01T00:00:00Z');
    const companyRows: Record<string, string>[] = parse(mine.stdout, { columns: true });
    expect(companyRows.length).toBeGreaterThan(0);
    expect(companyRows.every((r) => r.account!.endsWith(`:${world.sme.companyId}`))).toBe(true);
    expect(run('ledger:export', '--from', 'yesterday', '--to', '2100-01-01').status).toBe(1);
  });
});

/** USD minor units as the decimal string the CSV carries. */
function decimal(cents: string): string {
  const negative = cents.startsWith('-');
  const digits = (negative ? cents.slice(1) : cents).padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
