import fc from 'fast-check';
import { merchantBalanceDecider } from '../../src/checkout/domain/merchant-balance.decider';
import { MerchantBalanceEvent, merchantBalanceStreamId } from '../../src/checkout/domain/merchant-balance.events';
import { SANDBOX_CARDS } from '../../src/checkout/infrastructure/sandbox-processors';
import { replayLedger, verifyLedger } from '../../src/ledger/application/ledger-verifier';
import { companyBalanceDecider } from '../../src/payout-embed/domain/company-balance.decider';
import { BalanceEvent, balanceStreamId } from '../../src/payout-embed/domain/payout-embed.events';
import { DomainEvent, fold } from '../../src/platform/domain/decider';
import { confirm, createdCheckout } from '../browser/checkout-fixtures';
import { expectLedgerVerifyClean } from '../support/ledger-verify-cli';
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
 *
 * Issue 26 adds refunds and reversals: each SME also sells through Checkout (orders paid with a card that
 * works, one whose refunds fail, or one whose merchant payouts fail) and refunds them, and reverses part of
 * its transferred rows. A reversal is the SME's act on the contractor's money: it may take from the
 * contractor at most what it reverses. After every act every figure agrees: an SME's `availableCents` is what
 * its balance stream lets a Payout Embed session reserve; its checkout balance, payouts in transit and paid
 * out add up to what buyers paid less what refunds gave back, and the netting stream owes exactly what the
 * checkout balance is below zero (or holds what it is above).
 */

type SmeName = 'A' | 'B';

/** Rules a run reached; the scripted run checks it walked each one (a refusal that stopped happening would otherwise pass). */
const seen = { staleDecisions: 0, withdrawals: 0, feeRefusals: 0, reversals: 0, refunds: 0, failedRefunds: 0, failedPayouts: 0 };
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

/** A checkout order an SME sold, and what succeeded refunds gave back of it. */
interface OrderModel {
  id: string;
  owner: SmeName;
  captured: bigint;
  refunded: bigint;
}

interface Model {
  splits: SplitModel[];
  orders: OrderModel[];
}

interface World {
  app: TestApp;
  smes: Record<SmeName, Sme & { payoutKey: string; shopKey: string }>;
  /** The model's orders (the same array): what the checkout figures must add up to. */
  orders: OrderModel[];
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

interface BalanceRow {
  currency: string;
  availableCents: string;
  checkoutBalanceCents: string;
  checkoutPayoutsInTransitCents: string;
  checkoutPaidOutCents: string;
}

const streamOf = async <E extends DomainEvent>(world: World, streamId: string) =>
  (await world.app.platform.events.readStream(streamId)).map((e) => ({ type: e.type, data: e.data }) as E);

/**
 * Issue 26: every figure of an SME agrees once background work settled. availableCents is what its balance
 * stream may reserve (a reversal's or take-back's money included); its checkout money adds up (in transit,
 * paid out and still held = captured less refunded), nothing is in transit, and the netting stream owes what
 * the checkout balance is below zero.
 */
async function expectFiguresAgree(world: World, name: SmeName, row: BalanceRow | undefined): Promise<void> {
  const stream = fold(companyBalanceDecider, await streamOf<BalanceEvent>(world, balanceStreamId(world.smes[name].companyId)));
  const netting = fold(merchantBalanceDecider, await streamOf<MerchantBalanceEvent>(world, merchantBalanceStreamId(world.smes[name].companyId)));
  const mine = world.orders.filter((order) => order.owner === name);
  const held = mine.reduce((sum, order) => sum + order.captured - order.refunded, 0n);
  const checkout = BigInt(row?.checkoutBalanceCents ?? '0');
  expect({
    available: row?.availableCents ?? '0',
    checkoutMoney: (checkout + BigInt(row?.checkoutPayoutsInTransitCents ?? '0') + BigInt(row?.checkoutPaidOutCents ?? '0')).toString(),
    inTransit: row?.checkoutPayoutsInTransitCents ?? '0',
    owed: (-(netting.debt.USD ?? 0n)).toString(),
  }).toEqual({ available: (stream.available.USD ?? 0n).toString(), checkoutMoney: held.toString(), inTransit: '0', owed: checkout.toString() });
}

async function snapshot(world: World): Promise<Snapshot> {
  await world.app.eventCount();
  const available = {} as Record<SmeName, bigint>;
  for (const name of SMES) {
    const rows: BalanceRow[] = dataOf(await world.app.request('GET', '/api/commerce/balance', { token: world.smes[name].sessionToken }), 200);
    const usd = rows.find((row) => row.currency === 'USD');
    available[name] = BigInt(usd?.availableCents ?? '0');
    await expectFiguresAgree(world, name, usd);
  }
  const earnings = dataOf(await world.app.request('GET', '/api/commerce/me/earnings', { token: world.contractorSession }), 200);
  const contractor = BigInt(earnings.balances.find((b: { currency: string }) => b.currency === 'USD')?.availableCents ?? '0');
  return { available, contractor };
}

/**
 * Runs one act and checks that nobody's money went down unless it was theirs to move; a reversal may take from
 * the contractor at most what it reverses (`act` answers that amount), and every figure agrees before and after.
 */
async function acting(world: World, actor: Actor, act: () => Promise<bigint | void>): Promise<void> {
  const before = await snapshot(world);
  const reversed = (await act()) ?? 0n;
  const after = await snapshot(world);
  for (const name of SMES) {
    expect(after.available[name] >= 0n).toBe(true);
    if (actor !== name && after.available[name] < before.available[name]) {
      throw new Error(`SME ${name}'s available balance went down from ${before.available[name]} to ${after.available[name]} on an act of ${actor}`);
    }
  }
  expect(after.contractor >= 0n).toBe(true);
  if (actor !== 'contractor' && after.contractor < before.contractor - reversed) {
    throw new Error(`the contractor's balance went down from ${before.contractor} to ${after.contractor} on an act of ${actor} (reversing ${reversed})`);
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
      // A revised roster is a new roster: its row has a new distribution id (the old one is gone).
      split.distributionId = response.body.data.distributions[0].id;
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

/** The SME reverses `percent` of what is still reversible of a Split's row (over 100: more than that, 422); another SME's Split answers 404. */
class Reverse implements AgreementCommand {
  constructor(
    readonly actor: SmeName,
    readonly index: number,
    readonly percent: number,
    readonly refundFee: boolean,
  ) {}
  check = (model: Readonly<Model>) => this.index < model.splits.length;
  async run(model: Model, world: World) {
    const split = model.splits[this.index]!;
    const row = (await splitOf(world, split)).distributions[0];
    const reversible = BigInt(row.netAmountCents ?? '0') - BigInt(row.reversedAmountCents ?? '0');
    const amount = row.status === 'COMPLETED' ? (reversible * BigInt(this.percent)) / 100n : 1n;
    if (amount <= 0n) return;
    const sme = world.smes[this.actor];
    const before = await snapshot(world);
    await acting(world, this.actor, async () => {
      const response = await world.app.request('POST', `/api/commerce/integration/splits/${split.id}/distributions/${split.distributionId}/reversals`, {
        token: sme.apiKey,
        body: { amountCents: amount.toString(), reason: 'property', refundFee: this.refundFee, idempotencyKey: newIdempotencyKey('reverse') },
      });
      if (this.actor !== split.owner) return expect(response.status).toBe(404);
      // A row not transferred yet: 409, or 404 while its Split is not funded (it has no rows to reverse yet).
      if (row.status !== 'COMPLETED')
        return expect([
          [409, 'DISTRIBUTION_NOT_TRANSFERRED'],
          [404, 'DISTRIBUTION_NOT_FOUND'],
        ]).toContainEqual([response.status, response.body.error.code]);
      if (amount > reversible) return expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 422, code: 'REVERSAL_EXCEEDS_TRANSFERRED' });
      expectStatus(response, [201], 'reverse');
      seen.reversals++;
      const after = await snapshot(world);
      // The SME gets exactly the amount and the fee share back, spendable at once.
      expect(after.available[this.actor] - before.available[this.actor]).toBe(amount + BigInt(response.body.data.feeRefundedCents));
      return amount;
    });
  }
  toString = () => `reverse(by ${this.actor}, #${this.index}, ${this.percent}%${this.refundFee ? ', refundFee' : ''})`;
}

const ORDER_CARDS = { ok: SANDBOX_CARDS.SUCCEEDS, refundsFail: SANDBOX_CARDS.REFUNDS_FAIL, payoutFails: SANDBOX_CARDS.PAYOUT_FAILS } as const;

/** The SME sells through Checkout: an order paid by a card that works, one whose refunds fail, or one whose merchant payouts fail. */
class PayOrder implements AgreementCommand {
  constructor(
    readonly owner: SmeName,
    readonly amount: number,
    readonly card: keyof typeof ORDER_CARDS,
  ) {}
  check = (model: Readonly<Model>) => model.orders.length < 6;
  async run(model: Model, world: World) {
    await acting(
      world,
      'clock', // a buyer pays: nobody's money may go down
      async () => {
        const order = await createdCheckout(world.app, world.smes[this.owner].shopKey, { checkoutMode: 'EMBEDDED', amountMinorUnits: String(this.amount) });
        expect(dataOf(await confirm(world.app, order.orderId, order.clientSecret, ORDER_CARDS[this.card]), 200)).toEqual({ status: 'PAID' });
        model.orders.push({ id: order.orderId, owner: this.owner, captured: BigInt(this.amount), refunded: 0n });
        if (this.card === 'payoutFails') seen.failedPayouts++;
      },
    );
  }
  toString = () => `payOrder(${this.owner}, ${this.amount}, ${this.card})`;
}

/** The merchant refunds `percent` of what is still refundable of an order (over 100: 422); another merchant's order answers 404. */
class Refund implements AgreementCommand {
  constructor(
    readonly actor: SmeName,
    readonly index: number,
    readonly percent: number,
  ) {}
  check = (model: Readonly<Model>) => this.index < model.orders.length;
  async run(model: Model, world: World) {
    const order = model.orders[this.index]!;
    const amount = ((order.captured - order.refunded) * BigInt(this.percent)) / 100n;
    if (amount <= 0n) return;
    await acting(world, this.actor, async () => {
      const response = await world.app.request('POST', `/api/commerce/integration/checkout/orders/${order.id}/refunds`, {
        token: world.smes[this.actor].shopKey,
        body: { amountMinorUnits: amount.toString(), idempotencyKey: newIdempotencyKey('refund') },
      });
      if (this.actor !== order.owner) return expect(response.status).toBe(404);
      if (amount > order.captured - order.refunded)
        return expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 422, code: 'CHECKOUT_REFUND_EXCEEDS_CAPTURED' });
      expectStatus(response, [201], 'refund');
      if (response.body.data.status === 'succeeded') {
        order.refunded += amount;
        seen.refunds++;
      } else {
        expect(response.body.data.status).toBe('failed');
        seen.failedRefunds++;
      }
    });
  }
  toString = () => `refund(by ${this.actor}, order #${this.index}, ${this.percent}%)`;
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
    // Issue 26: reversals of transferred rows, checkout orders and their refunds.
    fc.tuple(sme, index, fc.integer({ min: 1, max: 120 }), fc.boolean()).map(([a, i, p, f]) => new Reverse(a, i, p, f)),
    fc
      .tuple(sme, fc.integer({ min: 100, max: 50_000 }), fc.constantFrom<keyof typeof ORDER_CARDS>('ok', 'ok', 'refundsFail', 'payoutFails'))
      .map(([o, a, c]) => new PayOrder(o, a, c)),
    fc.tuple(sme, fc.nat({ max: 3 }), fc.integer({ min: 1, max: 120 })).map(([a, i, p]) => new Refund(a, i, p)),
    fc.tuple(sme, fc.nat({ max: 3 }), fc.integer({ min: 1, max: 120 })).map(([a, i, p]) => new Refund(a, i, p)),
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
    const withPayoutKey = async (company: Sme) => ({
      ...company,
      payoutKey: await issueApiKey(app, company.sessionToken, ['payout:write'], 'payouts'),
      shopKey: await issueApiKey(app, company.sessionToken, ['checkout:write'], 'shop'),
    });
    dataOf(await app.request('POST', '/api/auth/magic-link', { body: { email: creator.email } }), 202);
    const link = (await outbox(app)).filter((message) => message.to === creator.email).pop()!.link;
    const signedIn = dataOf(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token') } }), 200);
    return { app, smes: { A: await withPayoutKey(a), B: await withPayoutKey(b) }, enterprise, creator, contractorSession: signedIn.sessionToken, orders: [] };
  }

  it('holds over random interleavings, and ledger:verify passes at the end of each', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const world = await newWorld();
        const model: Model = { splits: [], orders: world.orders };
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
    const model: Model = { splits: [], orders: world.orders };
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

  it('pays out the row of a revised roster: a revision gives the row a new distribution id, which the model follows', async () => {
    // The counterexample a random run found (CI, seed 497074886): the model kept the first roster's id.
    const world = await newWorld();
    const model: Model = { splits: [], orders: world.orders };
    await fc.asyncModelRun(
      () => ({ model, real: world }),
      [new CreateSplit('A', 100, 0, false, false), new ReviseRoster(0, 100), new Review(0), new Decide(0, 'approve'), new SmeActsOnSplit('payOutNow', 'A', 0)],
    );
    expect(model.splits[0]!.status).toBe('APPROVED');
  });

  it('walks refunds and reversals with the same checks (issue 26): every figure agrees after each act, and ledger:verify (the CLI) is clean', async () => {
    const world = await newWorld();
    const model: Model = { splits: [], orders: world.orders };
    const before = { ...seen };
    await fc.asyncModelRun(
      () => ({ model, real: world }),
      [
        new CreateSplit('A', 10_000, 0, true, false),
        new Review(0),
        new Decide(0, 'approve'),
        new Advance(1), // funded and the instant row transferred
        new Withdraw(80, 0),
        new Reverse('B', 0, 50, false), // not B's Split: 404
        new Reverse('A', 0, 50, true), // part from the contractor's balance, the rest owed; the fee share back
        new Reverse('A', 0, 200, false), // more than is left: 422
        new PayoutEmbed('A', 4_000, false), // the reversed money is spendable
        new PayOrder('A', 10_000, 'payoutFails'),
        new PayOrder('A', 1_000, 'ok'),
        new Refund('A', 1, 100), // paid out already: drawn on what the failed payout left
        new Refund('B', 0, 10), // not B's order: 404
        new PayOrder('A', 2_000, 'refundsFail'),
        new Refund('A', 2, 50), // the processor refuses it: nothing moves
        new Refund('A', 0, 150), // more than captured: 422
        new Refund('A', 0, 100),
        new PayOrder('A', 3_000, 'ok'), // the refunds owe more than the failed payout left: this order nets it
      ],
    );
    expect({
      reversals: seen.reversals - before.reversals,
      refunds: seen.refunds - before.refunds,
      failedRefunds: seen.failedRefunds - before.failedRefunds,
      failedPayouts: seen.failedPayouts - before.failedPayouts,
    }).toEqual({ reversals: 1, refunds: 2, failedRefunds: 1, failedPayouts: 1 });
    await expectLedgerVerifyClean(app);
  }, 120_000);
});
