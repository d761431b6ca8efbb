import fc from 'fast-check';
import { replayLedger, verifyLedger } from '../../src/ledger/application/ledger-verifier';
import { startTestApp, TestApp, TestResponse } from '../support/test-app';
import { createCreator, createEnterprise, createSme, Creator, creatorRow, dataOf, Enterprise, issueApiKey, newIdempotencyKey, outbox, Sme } from '../support/split-fixtures';
import { SESSIONS, sessionBody } from '../support/payout-embed-fixtures';

/**
 * Issue 23, model-based: random interleavings of what two SMEs, their enterprise and a contractor may
 * do (create, revise, review, approve with a fresh or a stale revision, reject, pay out now, settle the
 * margin, top up, Payout Embed, withdraw with retries, the clock) never move money without the
 * agreement of the party it comes from:
 *  - a Split is funded only after its enterprise approved it, for exactly the total it reviewed;
 *  - an approval of a revision that is no longer current is 409 SPLIT_CHANGED_SINCE_REVIEW and changes nothing;
 *  - a company's available balance never goes down on another party's act (or the clock), and another
 *    company's Split answers 404 to its calls;
 *  - a contractor's balance never goes down but by its own withdrawal, which a retry with the same
 *    Idempotency-Key pays once;
 * and ledger:verify holds at the end of every run.
 */

type SmeName = 'A' | 'B';

/** Rules a run reached; the scripted run checks it walked each one (a refusal that stopped happening would otherwise pass). */
const seen = { staleDecisions: 0, withdrawals: 0, feeRefusals: 0 };
const SMES: SmeName[] = ['A', 'B'];

interface SplitModel {
  id: string;
  owner: SmeName;
  distributionId: string;
  revision: number;
  total: bigint;
  /** What the enterprise last read: the revision its approval will name. */
  reviewed: { revision: number; total: bigint } | null;
  status: 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED';
  approvedTotal: bigint | null;
}

interface Model {
  splits: SplitModel[];
}

interface World {
  app: TestApp;
  smes: Record<SmeName, Sme & { payoutKey: string }>;
  enterprise: Enterprise;
  creator: Creator;
  contractorSession: string;
}

/** Who acts: a company (its balance may go down) or the contractor (its earnings may go down), or nobody (the clock). */
type Actor = SmeName | 'enterprise' | 'contractor' | 'clock';

interface Snapshot {
  available: Record<SmeName, bigint>;
  contractor: bigint;
}

async function snapshot(world: World): Promise<Snapshot> {
  await world.app.eventCount();
  const available = {} as Record<SmeName, bigint>;
  for (const name of SMES) {
    const rows: { currency: string; availableCents: string }[] = dataOf(await world.app.request('GET', '/api/commerce/balance', { token: world.smes[name].sessionToken }), 200);
    available[name] = BigInt(rows.find((row) => row.currency === 'USD')?.availableCents ?? '0');
  }
  const earnings = dataOf(await world.app.request('GET', '/api/commerce/me/earnings', { token: world.contractorSession }), 200);
  const contractor = BigInt(earnings.balances.find((b: { currency: string }) => b.currency === 'USD')?.availableCents ?? '0');
  return { available, contractor };
}

/** Runs one act and checks that nobody's money went down unless it was theirs to move. */
async function acting(world: World, actor: Actor, act: () => Promise<void>): Promise<void> {
  const before = await snapshot(world);
  await act();
  const after = await snapshot(world);
  for (const name of SMES) {
    expect(after.available[name] >= 0n).toBe(true);
    if (actor !== name && after.available[name] < before.available[name]) {
      throw new Error(`SME ${name}'s available balance went down from ${before.available[name]} to ${after.available[name]} on an act of ${actor}`);
    }
  }
  expect(after.contractor >= 0n).toBe(true);
  if (actor !== 'contractor' && after.contractor < before.contractor) {
    throw new Error(`the contractor's balance went down from ${before.contractor} to ${after.contractor} on an act of ${actor}`);
  }
}

const expectStatus = (response: TestResponse, allowed: number[], what: string) => {
  if (!allowed.includes(response.status)) throw new Error(`${what}: expected one of ${allowed.join(', ')}, got ${response.status}: ${response.text}`);
};

const splitOf = async (world: World, split: SplitModel) =>
  dataOf(await world.app.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: world.smes[split.owner].apiKey }), 200);

type AgreementCommand = fc.AsyncCommand<Model, World>;

class CreateSplit implements AgreementCommand {
  constructor(
    readonly owner: SmeName,
    readonly amount: number,
    readonly marginShare: number,
    readonly early: boolean,
    readonly covered: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.splits.length < 6;
  async run(model: Model, world: World) {
    const amount = BigInt(this.amount);
    const total = amount + ((amount / 4n) * BigInt(this.marginShare)) / 100n;
    await acting(world, this.owner, async () => {
      const response = await world.app.request('POST', '/api/commerce/integration/splits', {
        token: world.smes[this.owner].apiKey,
        body: {
          enterpriseCompanyId: world.enterprise.companyId,
          apContactBusinessProfileId: world.enterprise.apContactId,
          clientIdempotencyKey: newIdempotencyKey('agreement'),
          totalAmountCents: total.toString(),
          roster: [creatorRow(world.creator, amount.toString(), { earlyPayoutElected: this.early, businessCoversFee: this.covered })],
        },
      });
      expectStatus(response, [201, 422], 'create');
      if (response.status === 422) {
        expect(response.body.error.code).toBe('SME_FEE_NOT_COVERED');
        seen.feeRefusals++;
        return;
      }
      const split = response.body.data;
      expect(split.status).toBe('PENDING_APPROVAL');
      model.splits.push({
        id: split.id,
        owner: this.owner,
        distributionId: split.distributions[0].id,
        revision: split.revision,
        total,
        reviewed: null,
        status: 'PENDING_APPROVAL',
        approvedTotal: null,
      });
    });
  }
  toString = () => `create(${this.owner}, ${this.amount}, margin ${this.marginShare}%, early ${this.early}, covered ${this.covered})`;
}

class ReviseRoster implements AgreementCommand {
  constructor(
    readonly index: number,
    readonly amount: number,
  ) {}
  check = (model: Readonly<Model>) => this.index < model.splits.length;
  async run(model: Model, world: World) {
    const split = model.splits[this.index]!;
    await acting(world, split.owner, async () => {
      const response = await world.app.request('PUT', `/api/commerce/integration/splits/${split.id}/roster`, {
        token: world.smes[split.owner].apiKey,
        body: { roster: [creatorRow(world.creator, String(this.amount))] },
      });
      expectStatus(response, [200, 409], 'revise');
      if (split.status !== 'PENDING_APPROVAL') {
        expect(response.status).toBe(409);
        return;
      }
      expect(response.status).toBe(200);
      split.revision = response.body.data.revision;
      split.total = BigInt(this.amount);
    });
  }
  toString = () => `revise(#${this.index}, ${this.amount})`;
}

class Review implements AgreementCommand {
  constructor(readonly index: number) {}
  check = (model: Readonly<Model>) => this.index < model.splits.length;
  async run(model: Model, world: World) {
    const split = model.splits[this.index]!;
    const read = dataOf(await world.app.request('GET', `/api/commerce/splits/${split.id}`, { token: world.enterprise.sessionToken }), 200);
    expect({ revision: read.revision, total: read.totalAmountCents }).toEqual({ revision: split.revision, total: split.total.toString() });
    split.reviewed = { revision: read.revision, total: BigInt(read.totalAmountCents) };
  }
  toString = () => `review(#${this.index})`;
}

class Decide implements AgreementCommand {
  constructor(
    readonly index: number,
    readonly decision: 'approve' | 'reject',
  ) {}
  /** The enterprise decides only on a Split it has read (index as for the other commands, so they meet on one Split). */
  check = (model: Readonly<Model>) => this.index < model.splits.length && model.splits[this.index]!.reviewed !== null;
  async run(model: Model, world: World) {
    const split = model.splits[this.index]!;
    await acting(world, 'enterprise', async () => {
      const response = await world.app.request('POST', `/api/commerce/splits/${split.id}/${this.decision}`, {
        token: world.enterprise.sessionToken,
        body: { revision: split.reviewed!.revision },
      });
      if (split.status !== 'PENDING_APPROVAL') {
        expect(response.status).toBe(409);
        return;
      }
      if (split.reviewed!.revision !== split.revision) {
        seen.staleDecisions++;
        expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 409, code: 'SPLIT_CHANGED_SINCE_REVIEW' });
        const now = await splitOf(world, split);
        expect({ status: now.status, revision: now.revision }).toEqual({ status: 'PENDING_APPROVAL', revision: split.revision });
        return;
      }
      expectStatus(response, [200], this.decision);
      if (this.decision === 'approve') {
        split.status = 'APPROVED';
        split.approvedTotal = split.reviewed!.total;
      } else {
        split.status = 'REJECTED';
      }
    });
  }
  toString = () => `${this.decision}(#${this.index})`;
}

/** An SME's own act on a Split (another SME's Split answers 404 and nothing moves). */
class SmeActsOnSplit implements AgreementCommand {
  constructor(
    readonly act: 'payOutNow' | 'settleMargin',
    readonly actor: SmeName,
    readonly index: number,
  ) {}
  check = (model: Readonly<Model>) => this.index < model.splits.length;
  async run(model: Model, world: World) {
    const split = model.splits[this.index]!;
    const sme = world.smes[this.actor];
    const [path, token, allowed] =
      this.act === 'payOutNow'
        ? [`/api/commerce/integration/splits/${split.id}/distributions/${split.distributionId}/payout`, sme.apiKey, [200, 409, 422]]
        : [`/api/commerce/splits/${split.id}/settle-margin`, sme.sessionToken, [200, 409]];
    await acting(world, this.actor, async () => {
      const response = await world.app.request('POST', path, { token, headers: { 'idempotency-key': newIdempotencyKey(this.act) } });
      if (this.actor !== split.owner) expect(response.status).toBe(404);
      else expectStatus(response, allowed, this.act);
    });
  }
  toString = () => `${this.act}(by ${this.actor}, #${this.index})`;
}

class TopUp implements AgreementCommand {
  constructor(
    readonly owner: SmeName,
    readonly amount: number,
    readonly retried: boolean,
  ) {}
  check = () => true;
  async run(_model: Model, world: World) {
    const key = newIdempotencyKey('top-up');
    const before = await snapshot(world);
    const topUp = () =>
      world.app.request('POST', '/api/sandbox/balance/top-up', {
        token: world.smes[this.owner].sessionToken,
        headers: { 'idempotency-key': key },
        body: { amountCents: String(this.amount), currency: 'USD' },
      });
    expectStatus(await topUp(), [201], 'top-up');
    if (this.retried) expectStatus(await topUp(), [201], 'top-up retried');
    const after = await snapshot(world);
    expect(after.available[this.owner] - before.available[this.owner]).toBe(BigInt(this.amount));
  }
  toString = () => `topUp(${this.owner}, ${this.amount}${this.retried ? ', retried' : ''})`;
}

class PayoutEmbed implements AgreementCommand {
  constructor(
    readonly owner: SmeName,
    readonly amount: number,
    readonly cancel: boolean,
  ) {}
  check = () => true;
  async run(_model: Model, world: World) {
    await acting(world, this.owner, async () => {
      const created = await world.app.request('POST', SESSIONS, {
        token: world.smes[this.owner].payoutKey,
        headers: { 'idempotency-key': newIdempotencyKey('embed') },
        body: sessionBody({ amountCents: String(this.amount) }),
      });
      expectStatus(created, [201, 422], 'payout embed create');
      if (created.status === 201 && this.cancel) {
        expectStatus(await world.app.request('POST', `${SESSIONS}/${created.body.data.id}/cancel`, { token: world.smes[this.owner].payoutKey }), [200], 'payout embed cancel');
      }
    });
  }
  toString = () => `payoutEmbed(${this.owner}, ${this.amount}${this.cancel ? ', cancelled' : ''})`;
}

class Withdraw implements AgreementCommand {
  /** `percent` of what the contractor has at the time: over 100 asks for more than there is (422). */
  constructor(
    readonly percent: number,
    readonly retries: number,
  ) {}
  check = () => true;
  async run(_model: Model, world: World) {
    const key = newIdempotencyKey('withdraw');
    const before = await snapshot(world);
    const amount = (before.contractor * BigInt(this.percent)) / 100n;
    if (amount <= 0n) return;
    const withdraw = () =>
      world.app.request('POST', '/api/commerce/me/withdrawals', {
        token: world.contractorSession,
        headers: { 'idempotency-key': key },
        body: { amountCents: amount.toString(), currency: 'USD' },
      });
    const first = await withdraw();
    expectStatus(first, [201, 422], 'withdraw');
    for (let i = 0; i < this.retries; i++) {
      const again = await withdraw();
      // A refusal frees the key (it moved nothing); an accepted withdrawal is replayed, never paid again.
      if (first.status === 201) expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body });
    }
    const after = await snapshot(world);
    if (first.status === 201) {
      seen.withdrawals++;
      expect(before.contractor - after.contractor).toBe(amount);
    } else {
      expect(after.contractor).toBe(before.contractor);
    }
  }
  toString = () => `withdraw(${this.percent}%, ${this.retries} retries)`;
}

class Advance implements AgreementCommand {
  constructor(readonly days: number) {}
  check = () => true;
  async run(_model: Model, world: World) {
    await acting(world, 'clock', async () => {
      dataOf(await world.app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: this.days * 86_400 } }), 200);
    });
  }
  toString = () => `advance(${this.days}d)`;
}

const sme = fc.constantFrom<SmeName>('A', 'B');
// The nth Split created, of the first three: reviews, revisions and decisions meet on the same ones.
const index = fc.nat({ max: 2 });
const create = fc
  .tuple(sme, fc.integer({ min: 100, max: 200_000 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })), fc.boolean(), fc.boolean())
  .map(([o, a, m, e, c]) => new CreateSplit(o, a, m, e, c));
const revise = fc.tuple(index, fc.integer({ min: 100, max: 200_000 })).map(([i, a]) => new ReviseRoster(i, a));
const review = index.map((i) => new Review(i));
const decide = fc.tuple(index, fc.constantFrom<'approve' | 'reject'>('approve', 'approve', 'reject')).map(([i, d]) => new Decide(i, d));
const withdraw = fc.tuple(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 2 })).map(([p, r]) => new Withdraw(p, r));
// An arbitrary listed twice is drawn twice as often.
const commands = fc.commands(
  [
    create,
    create,
    revise,
    revise,
    review,
    review,
    decide,
    decide,
    decide,
    fc.tuple(fc.constantFrom<'payOutNow' | 'settleMargin'>('payOutNow', 'settleMargin'), sme, index).map(([act, a, i]) => new SmeActsOnSplit(act, a, i)),
    fc.tuple(fc.constantFrom<'payOutNow' | 'settleMargin'>('payOutNow', 'settleMargin'), sme, index).map(([act, a, i]) => new SmeActsOnSplit(act, a, i)),
    fc.tuple(sme, fc.integer({ min: 1, max: 50_000 }), fc.boolean()).map(([o, a, r]) => new TopUp(o, a, r)),
    fc.tuple(sme, fc.integer({ min: 1, max: 20_000 }), fc.boolean()).map(([o, a, c]) => new PayoutEmbed(o, a, c)),
    withdraw,
    withdraw,
    fc.integer({ min: 1, max: 40 }).map((d) => new Advance(d)),
  ],
  { maxCommands: 30, size: 'max' },
);

describe('money moves only with its payer’s agreement (issue 23, model-based)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  /** Two SMEs billing one enterprise, each with a Payout Embed key, and a contractor signed in by magic link. */
  async function newWorld(): Promise<World> {
    const [a, b, enterprise, creator] = await Promise.all([
      createSme(app, 'Agree A'),
      createSme(app, 'Agree B'),
      createEnterprise(app, 'Agree Ent'),
      createCreator(app, { fullName: 'Ada Agree' }),
    ]);
    const withPayoutKey = async (company: Sme) => ({ ...company, payoutKey: await issueApiKey(app, company.sessionToken, ['payout:write'], 'payouts') });
    dataOf(await app.request('POST', '/api/auth/magic-link', { body: { email: creator.email } }), 202);
    const link = (await outbox(app)).filter((message) => message.to === creator.email).pop()!.link;
    const signedIn = dataOf(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token') } }), 200);
    return { app, smes: { A: await withPayoutKey(a), B: await withPayoutKey(b) }, enterprise, creator, contractorSession: signedIn.sessionToken };
  }

  it('holds over random interleavings, and ledger:verify passes at the end of each', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const world = await newWorld();
        const model: Model = { splits: [] };
        await fc.asyncModelRun(() => ({ model, real: world }), cmds);

        // Funding only for what the enterprise approved, for exactly the total it reviewed.
        await app.eventCount();
        const { postings, splits } = await replayLedger(app.platform.events);
        for (const split of model.splits) {
          const funding = postings.filter((p) => 'splitId' in p && p.splitId === split.id && p.kind === 'funding');
          if (split.status !== 'APPROVED') {
            expect(funding).toEqual([]);
            continue;
          }
          const receivable = funding.flatMap((p) => p.entries).filter((e) => e.account.startsWith('enterprise_receivable:'));
          expect(receivable.map((e) => e.debit)).toEqual([split.approvedTotal!.toString()]);
        }
        expect(verifyLedger(postings, splits).violations).toEqual([]);
      }),
      { numRuns: 25 },
    );
  }, 600_000);

  it("walks the issue's scenario with the same checks: a fee nobody can cover, a swap under the approver, then a fresh approval", async () => {
    const world = await newWorld();
    const model: Model = { splits: [] };
    const before = { ...seen };
    await fc.asyncModelRun(
      () => ({ model, real: world }),
      [
        new CreateSplit('A', 1_000_000, 0, true, true), // the covered 15000 fee: no margin, no balance -> 422
        new CreateSplit('A', 10_000, 0, true, false),
        new Review(0),
        new ReviseRoster(0, 100_000_000),
        new Decide(0, 'approve'), // stale: 409 SPLIT_CHANGED_SINCE_REVIEW, nothing moves
        new SmeActsOnSplit('settleMargin', 'B', 0),
        new Review(0),
        new Decide(0, 'approve'),
        new Advance(1), // funded at once; the row is paid on its net-terms day, 30 days later
        new Advance(31),
        new Withdraw(50, 2),
      ],
    );
    expect({ fee: seen.feeRefusals - before.feeRefusals, stale: seen.staleDecisions - before.staleDecisions, withdrawals: seen.withdrawals - before.withdrawals }).toEqual({
      fee: 1,
      stale: 1,
      withdrawals: 1,
    });
  });
});
