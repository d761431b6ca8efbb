import { given } from '../../../test/support/given-when-then';
import { approved, created, funded, row } from '../../../test/support/split-events';
import { SplitCommand } from './split.commands';
import { splitDecider } from './split.decider';
import { SplitEvent } from './split.events';
import { transferPayoutId } from './row-transfer-schedule';

/** The payout id the decider fixes for row `n`'s transfer attempt. */
const po = (n: number, attempt = 1) => transferPayoutId('spl_1', `dst_${n}`, attempt);

const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-01T00:01:00.000Z';
const BPS = 150;

const fund: SplitCommand = { type: 'FundSplit', data: { splitId: 'spl_1', earlyPayoutFeeBps: BPS }, metadata: { now: t0, actor: 'system' } };
const start = (n: number, instant: boolean): SplitCommand => ({
  type: 'StartRowTransfer',
  data: { splitId: 'spl_1', distributionId: `dst_${n}`, instant, earlyPayoutFeeBps: BPS },
  metadata: { now: t1, actor: 'system' },
});
const started = (
  n: number,
  fee: string,
  net: string,
  amount: string,
  extra: Partial<Extract<SplitEvent, { type: 'split.roster_entry.transfer_started' }>['data']> = {},
): SplitEvent => ({
  type: 'split.roster_entry.transfer_started',
  data: {
    splitId: 'spl_1',
    rosterEntryId: `dst_${n}`,
    payoutId: po(n),
    attempt: 1,
    instant: fee !== '0',
    amountCents: amount,
    feeAmountCents: fee,
    netAmountCents: net,
    businessCoversFee: false,
    destination: `v${n}@example.com`,
    startedAt: t1,
    ...extra,
  },
});
const marginSettled = (margin: string, via: 'instant_election' | 'settle_call' | 'net_terms', releasedAt: string, recovered = '0'): SplitEvent => ({
  type: 'split.margin.settled',
  data: {
    splitId: 'spl_1',
    smeCompanyId: 'co_sme',
    currency: 'USD',
    marginAmountCents: margin,
    feeRecoveredCents: recovered,
    creditedToBalanceCents: (BigInt(margin) - BigInt(recovered)).toString(),
    via,
    releasedAt,
  },
});
const settledRow = (n: number, payoutId = po(n)): SplitEvent => ({
  type: 'split.roster_entry.settled',
  data: { splitId: 'spl_1', rosterEntryId: `dst_${n}`, payoutId, settledAt: t1 },
});

describe('split settlement decider', () => {
  const twoRows = [row(1, '10000', { earlyPayoutElected: true, businessCoversFee: true }), row(2, '5000')];

  it('funds an approved Split: claims the roster sum, reserves SME-covered instant fees, holds the margin', () =>
    given(splitDecider, created(twoRows, '18000', '3000'), approved)
      .when(fund)
      .then([
        funded('15000', '150'),
        { type: 'split.leg_a.claimed', data: { splitId: 'spl_1', legAPayoutId: 'po_a', amountCents: '15000', claimedAt: t0 } },
        { type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: '3000', marginHoldStartedAt: t0 } },
      ]));

  it('releases the margin at funding when the SME elected instant release while pending', () =>
    given(splitDecider, created(twoRows, '18000', '3000'), approved, { type: 'split.margin.instant_elected', data: { splitId: 'spl_1', electedBy: 'usr', electedAt: t0 } })
      .when(fund)
      .then([
        funded('15000', '150'),
        { type: 'split.leg_a.claimed', data: { splitId: 'spl_1', legAPayoutId: 'po_a', amountCents: '15000', claimedAt: t0 } },
        { type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: '3000', marginHoldStartedAt: t0 } },
        marginSettled('3000', 'instant_election', t0),
      ]));

  it('funds nothing twice, nor a Split that is not approved', () => {
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000', '150'))
      .when(fund)
      .thenNothing();
    given(splitDecider, created(twoRows, '15000', '0'))
      .when(fund)
      .thenNothing();
  });

  it('transfers an instant row with the fee; with businessCoversFee the contractor gets the whole amount', () => {
    given(splitDecider, created([row(1, '10001')], '10001', '0'), approved, funded('10001'))
      .when(start(1, true))
      .then([started(1, '150', '9851', '10001')]);
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000', '150'))
      .when(start(1, true))
      .then([started(1, '150', '10000', '10000', { businessCoversFee: true })]);
  });

  it('refuses an on-demand payout of a row already started or settled (409), whoever won a race (issue 15)', () => {
    const onDemand = (n: number): SplitCommand => ({
      type: 'StartRowTransfer',
      data: { splitId: 'spl_1', distributionId: `dst_${n}`, instant: true, onDemand: true, earlyPayoutFeeBps: BPS },
      metadata: { now: t1, actor: 'system' },
    });
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000'), started(2, '0', '5000', '5000'))
      .when(onDemand(2))
      .thenFails('DISTRIBUTION_ALREADY_PAID_OUT');
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000'), started(2, '0', '5000', '5000'), settledRow(2))
      .when(onDemand(2))
      .thenFails('DISTRIBUTION_ALREADY_PAID_OUT');
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000'))
      .when(onDemand(2))
      .then([started(2, '75', '4925', '5000')]);
  });

  it('transfers a net-terms row fee-free, once', () => {
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000'))
      .when(start(2, false))
      .then([started(2, '0', '5000', '5000')]);
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000'), started(2, '0', '5000', '5000'))
      .when(start(2, false))
      .thenNothing();
  });

  it('decides nothing when a row timer or a replayed funding reaches a Split that settled early; the SME still hears why (issue 23)', () => {
    // Both rows paid out on demand before maturity: the Split SETTLED, then the net-terms timer of each row fires.
    const settledEarly = [
      created(twoRows, '15000', '0'),
      approved,
      funded('15000', '150'),
      started(1, '150', '10000', '10000', { businessCoversFee: true }),
      started(2, '75', '4925', '5000'),
      settledRow(1),
      settledRow(2),
      { type: 'split.settled', data: { splitId: 'spl_1', settledAt: t1 } } as SplitEvent,
    ];
    given(splitDecider, ...settledEarly)
      .when(start(2, false))
      .thenNothing();
    given(splitDecider, ...settledEarly)
      .when(start(1, true))
      .thenNothing();
    given(splitDecider, ...settledEarly)
      .when({
        type: 'StartRowTransfer',
        data: { splitId: 'spl_1', distributionId: 'dst_2', instant: true, onDemand: true, earlyPayoutFeeBps: BPS },
        metadata: { now: t1, actor: 'system' },
      })
      .thenFails('SPLIT_NOT_FUNDED');
  });

  it('refuses a transfer before funding and for an unknown row', () => {
    given(splitDecider, created(twoRows, '15000', '0'), approved)
      .when(start(1, true))
      .thenFails('SPLIT_NOT_FUNDED');
    given(splitDecider, created(twoRows, '15000', '0'), approved, funded('15000'))
      .when(start(9, true))
      .thenFails('DISTRIBUTION_NOT_FOUND');
  });

  it('settles a row, and the Split with its last row', () => {
    const history = [created(twoRows, '15000', '0'), approved, funded('15000'), started(1, '150', '10000', '10000', { businessCoversFee: true }), started(2, '0', '5000', '5000')];
    given(splitDecider, ...history)
      .when({ type: 'CompleteRowTransfer', data: { splitId: 'spl_1', distributionId: 'dst_1', payoutId: po(1) }, metadata: { now: t1, actor: 'system' } })
      .then([settledRow(1)]);
    given(splitDecider, ...history, settledRow(1))
      .when({ type: 'CompleteRowTransfer', data: { splitId: 'spl_1', distributionId: 'dst_2', payoutId: po(2) }, metadata: { now: t1, actor: 'system' } })
      .then([settledRow(2), { type: 'split.settled', data: { splitId: 'spl_1', settledAt: t1 } }]);
  });

  it('records a failed transfer and retries it as the next attempt with the same fee terms', () => {
    const history = [created([row(1, '10000', { earlyPayoutElected: true })], '10000', '0'), approved, funded('10000'), started(1, '150', '9850', '10000')];
    const failed: SplitEvent = {
      type: 'split.roster_entry.failed',
      data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: po(1), attempt: 1, reason: 'rail said no', nextAttemptAt: t1, failedAt: t1 },
    };
    given(splitDecider, ...history)
      .when({
        type: 'FailRowTransfer',
        data: { splitId: 'spl_1', distributionId: 'dst_1', payoutId: po(1), reason: 'rail said no', nextAttemptAt: t1 },
        metadata: { now: t1, actor: 'system' },
      })
      .then([failed]);
    given(splitDecider, ...history, failed)
      .when(start(1, false))
      .then([started(1, '150', '9850', '10000', { attempt: 2, payoutId: po(1, 2), instant: true })]);
  });

  it('forwards a settled row to the wallet only with autoWithdraw and a wallet', () => {
    const withWallet = row(1, '5000', { autoWithdrawElected: true, walletEmail: 'w@example.com' });
    const history = [created([withWallet], '5000', '0'), approved, funded('5000'), started(1, '0', '5000', '5000'), settledRow(1)];
    const withdraw: SplitCommand = { type: 'StartWithdrawal', data: { splitId: 'spl_1', distributionId: 'dst_1', payoutId: 'po_w1' }, metadata: { now: t1, actor: 'system' } };
    given(splitDecider, ...history)
      .when(withdraw)
      .then([
        {
          type: 'split.roster_entry.withdrawal_started',
          data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_w1', amountCents: '5000', walletEmail: 'w@example.com', startedAt: t1 },
        },
      ]);
    const noWallet = row(1, '5000', { autoWithdrawElected: true });
    given(splitDecider, created([noWallet], '5000', '0'), approved, funded('5000'), started(1, '0', '5000', '5000'), settledRow(1))
      .when(withdraw)
      .thenNothing();
  });

  it("forwards to the contractor's own wallet as it is when the row is paid, ahead of the one recorded at create (issue 29)", () => {
    const smeSupplied = row(1, '5000', { autoWithdrawElected: true, walletEmail: 'sme-given@example.com' });
    const history = [created([smeSupplied], '5000', '0'), approved, funded('5000'), started(1, '0', '5000', '5000'), settledRow(1)];
    const withdraw = (walletEmail?: string | null): SplitCommand => ({
      type: 'StartWithdrawal',
      data: { splitId: 'spl_1', distributionId: 'dst_1', payoutId: 'po_w1', ...(walletEmail !== undefined ? { walletEmail } : {}) },
      metadata: { now: t1, actor: 'system' },
    });
    const startedTo = (walletEmail: string): SplitEvent => ({
      type: 'split.roster_entry.withdrawal_started',
      data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_w1', amountCents: '5000', walletEmail, startedAt: t1 },
    });
    given(splitDecider, ...history)
      .when(withdraw('own@example.com'))
      .then([startedTo('own@example.com')]);
    // No own wallet (or a command recorded before issue 29): the row's wallet from create pays.
    for (const none of [undefined, null])
      given(splitDecider, ...history)
        .when(withdraw(none))
        .then([startedTo('sme-given@example.com')]);
    // A row created without any wallet, whose contractor verified one since: forwarded there.
    const walletless = row(1, '5000', { autoWithdrawElected: true });
    given(splitDecider, created([walletless], '5000', '0'), approved, funded('5000'), started(1, '0', '5000', '5000'), settledRow(1))
      .when(withdraw('own@example.com'))
      .then([startedTo('own@example.com')]);
    // Only a row that elected auto-withdrawal is forwarded, whatever wallet is known.
    given(splitDecider, created([row(1, '5000')], '5000', '0'), approved, funded('5000'), started(1, '0', '5000', '5000'), settledRow(1))
      .when(withdraw('own@example.com'))
      .thenNothing();
  });

  describe('margin', () => {
    const settle: SplitCommand = { type: 'SettleMargin', data: { splitId: 'spl_1', smeCompanyId: 'co_sme' }, metadata: { now: t1, actor: 'user:usr' } };
    const held: SplitEvent = { type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: '1000', marginHoldStartedAt: t0 } };
    const base = [created([row(1, '4000')], '5000', '1000'), approved];

    it('records an instant election while pending, once', () => {
      given(splitDecider, ...base)
        .when(settle)
        .then([{ type: 'split.margin.instant_elected', data: { splitId: 'spl_1', electedBy: 'user:usr', electedAt: t1 } }]);
      given(splitDecider, ...base, { type: 'split.margin.instant_elected', data: { splitId: 'spl_1', electedBy: 'user:usr', electedAt: t1 } })
        .when(settle)
        .thenFails('SPLIT_MARGIN_NOT_SETTLEABLE');
    });
    it('releases a held margin now', () =>
      given(splitDecider, ...base, funded('4000'), held)
        .when(settle)
        .then([marginSettled('1000', 'settle_call', t1)]));
    it('recovers the instant fees the SME covered from the margin first; only the rest reaches its balance', () => {
      const covering = [created([row(1, '4000', { earlyPayoutElected: true, businessCoversFee: true })], '5000', '1000'), approved, funded('4000', '60'), held];
      given(splitDecider, ...covering, started(1, '60', '4000', '4000', { businessCoversFee: true }), settledRow(1))
        .when(settle)
        .then([marginSettled('1000', 'settle_call', t1, '60')]);
      // A transfer not yet settled has not been advanced: nothing to recover yet.
      given(splitDecider, ...covering, started(1, '60', '4000', '4000', { businessCoversFee: true }))
        .when(settle)
        .then([marginSettled('1000', 'settle_call', t1)]);
    });
    it('refuses NONE and RELEASED, and another company', () => {
      given(splitDecider, created([row(1, '4000')], '4000', '0'), approved)
        .when(settle)
        .thenFails('SPLIT_MARGIN_NOT_SETTLEABLE');
      const released: SplitEvent = marginSettled('1000', 'net_terms', t1);
      given(splitDecider, ...base, funded('4000'), held, released)
        .when(settle)
        .thenFails('SPLIT_MARGIN_NOT_SETTLEABLE');
      given(splitDecider, ...base)
        .when({ ...settle, data: { ...settle.data, smeCompanyId: 'co_other' } } as SplitCommand)
        .thenFails('SPLIT_NOT_FOUND');
    });
    it('releases at net terms only while held', () => {
      const release: SplitCommand = { type: 'ReleaseMarginAtNetTerms', data: { splitId: 'spl_1' }, metadata: { now: t1, actor: 'system' } };
      given(splitDecider, ...base, funded('4000'), held)
        .when(release)
        .then([marginSettled('1000', 'net_terms', t1)]);
      given(splitDecider, ...base)
        .when(release)
        .thenNothing();
    });
  });
});

describe('fees the SME covers are drawn from its own money (issue 23)', () => {
  const drawn = { smeCoveredFeesDrawn: true };
  const coveredEarly = row(1, '10000', { earlyPayoutElected: true, businessCoversFee: true });
  const onDemandCovered = row(2, '5000', { businessCoversFee: true });
  const fundedWith = (rosterSum: string, feeBuffer: string, fromMargin: string): SplitEvent => {
    const event = funded(rosterSum, feeBuffer);
    return { ...event, data: { ...event.data, feeCoverFromMarginCents: fromMargin } } as SplitEvent;
  };
  const held = (margin: string): SplitEvent => ({ type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: margin, marginHoldStartedAt: t0 } });
  const claimed = (amount: string): SplitEvent => ({ type: 'split.leg_a.claimed', data: { splitId: 'spl_1', legAPayoutId: 'po_a', amountCents: amount, claimedAt: t0 } });
  const settle: SplitCommand = { type: 'SettleMargin', data: { splitId: 'spl_1', smeCompanyId: 'co_sme' }, metadata: { now: t1, actor: 'user:usr' } };
  const complete = (n: number): SplitCommand => ({
    type: 'CompleteRowTransfer',
    data: { splitId: 'spl_1', distributionId: `dst_${n}`, payoutId: po(n) },
    metadata: { now: t1, actor: 'system' },
  });
  const onDemand = (n: number): SplitCommand => ({
    type: 'StartRowTransfer',
    data: { splitId: 'spl_1', distributionId: `dst_${n}`, instant: true, onDemand: true, earlyPayoutFeeBps: BPS },
    metadata: { now: t1, actor: 'system' },
  });

  it('sets aside the covered fees from the margin at funding, up to all of it; the rest was set aside from the balance', () => {
    given(splitDecider, created([coveredEarly, onDemandCovered], '18000', '3000', drawn), approved)
      .when(fund)
      .then((events) => expect(events[0]).toEqual(fundedWith('15000', '150', '150')));
    // A margin of 100 pays 100 of the 150 fee; no margin pays nothing (the 150 came from the balance).
    given(splitDecider, created([coveredEarly, onDemandCovered], '15100', '100', drawn), approved)
      .when(fund)
      .then((events) => expect(events[0]).toEqual(fundedWith('15000', '150', '100')));
    given(splitDecider, created([coveredEarly], '10000', '0', drawn), approved)
      .when(fund)
      .then([fundedWith('10000', '150', '0'), claimed('10000')]);
  });

  it('pays the fee with the row transfer: the settled row records the fee paid', () => {
    given(splitDecider, created([coveredEarly], '10000', '0', drawn), approved, fundedWith('10000', '150', '0'), started(1, '150', '10000', '10000', { businessCoversFee: true }))
      .when(complete(1))
      .then([
        { type: 'split.roster_entry.settled', data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: po(1), coveredFeePaidCents: '150', settledAt: t1 } },
        { type: 'split.settled', data: { splitId: 'spl_1', settledAt: t1 } },
      ]);
    // A row whose contractor bears the fee pays nothing on the SME's behalf.
    given(splitDecider, created([row(1, '10000', { earlyPayoutElected: true })], '10000', '0', drawn), approved, funded('10000'), started(1, '150', '9850', '10000'))
      .when(complete(1))
      .then((events) => expect(events[0]!.data).not.toHaveProperty('coveredFeePaidCents'));
  });

  it('releases the margin less what it set aside for fees, and recovers nothing twice, whether the row transferred or not', () => {
    const base = [created([coveredEarly, row(2, '5000')], '18000', '3000', drawn), approved, fundedWith('15000', '150', '150'), held('3000')];
    given(splitDecider, ...base)
      .when(settle)
      .then([marginSettledOf('2850', '0')]);
    given(splitDecider, ...base, started(1, '150', '10000', '10000', { businessCoversFee: true }), {
      type: 'split.roster_entry.settled',
      data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: po(1), coveredFeePaidCents: '150', settledAt: t1 },
    })
      .when(settle)
      .then([marginSettledOf('2850', '0')]);
  });

  it('keeps the fees set aside when the SME elected instant release while pending', () =>
    given(splitDecider, created([coveredEarly, row(2, '5000')], '18000', '3000', drawn), approved, {
      type: 'split.margin.instant_elected',
      data: { splitId: 'spl_1', electedBy: 'usr', electedAt: t0 },
    })
      .when(fund)
      .then([fundedWith('15000', '150', '150'), claimed('15000'), held('3000'), marginSettledOf('2850', '0', 'instant_election', t0)]));

  it('pays an on-demand covered fee from the held margin while it can, never once the margin is released', () => {
    const base = [created([coveredEarly, onDemandCovered], '18000', '3000', drawn), approved, fundedWith('15000', '150', '150')];
    given(splitDecider, ...base, held('3000'))
      .when(onDemand(2))
      .then([started(2, '75', '5000', '5000', { businessCoversFee: true, feeCoverFromMarginCents: '75' })]);
    const tight = [created([coveredEarly, onDemandCovered], '15200', '200', drawn), approved, fundedWith('15000', '150', '150'), held('200')];
    given(splitDecider, ...tight)
      .when(onDemand(2))
      .then([started(2, '75', '5000', '5000', { businessCoversFee: true, feeCoverFromMarginCents: '50' })]);
    given(splitDecider, ...base, held('3000'), marginSettledOf('2850', '0'))
      .when(onDemand(2))
      .then([started(2, '75', '5000', '5000', { businessCoversFee: true })]);
  });
});

function marginSettledOf(credited: string, recovered: string, via: 'instant_election' | 'settle_call' = 'settle_call', releasedAt = t1): SplitEvent {
  return {
    type: 'split.margin.settled',
    data: {
      splitId: 'spl_1',
      smeCompanyId: 'co_sme',
      currency: 'USD',
      marginAmountCents: '3000',
      feeRecoveredCents: recovered,
      creditedToBalanceCents: credited,
      via,
      releasedAt,
    },
  };
}
