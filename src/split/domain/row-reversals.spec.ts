import { given } from '../../../test/support/given-when-then';
import { approved, created, funded, row } from '../../../test/support/split-events';
import { ResolvedContractor, SplitCommand } from './split.commands';
import { splitDecider } from './split.decider';
import { SplitEvent } from './split.events';
import { TRANSFER_RETRY_HORIZON_DAYS, transferPayoutId } from './row-transfer-schedule';

/** The payout id the decider fixes for row `n`'s transfer attempt. */
const po = (n: number, attempt = 1) => transferPayoutId('spl_1', `dst_${n}`, attempt);

const t1 = '2026-01-01T00:01:00.000Z';
const t2 = '2026-01-02T00:00:00.000Z';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(t1) + days * DAY).toISOString();

// Row 1: 10000 instant, the contractor bears the 150 fee (net 9850). Row 2: 5000 at net terms, fee-free.
const rows = [row(1, '10000', { earlyPayoutElected: true, walletEmail: 'w1@example.com' }), row(2, '5000')];
const started = (n: number, attempt = 1, contractor = `v${n}@example.com`): SplitEvent => ({
  type: 'split.roster_entry.transfer_started',
  data: {
    splitId: 'spl_1',
    rosterEntryId: `dst_${n}`,
    payoutId: po(n, attempt),
    attempt,
    instant: n === 1,
    amountCents: n === 1 ? '10000' : '5000',
    feeAmountCents: n === 1 ? '150' : '0',
    netAmountCents: n === 1 ? '9850' : '5000',
    businessCoversFee: false,
    destination: contractor,
    startedAt: t1,
  },
});
const settled = (n: number, attempt = 1): SplitEvent => ({
  type: 'split.roster_entry.settled',
  data: { splitId: 'spl_1', rosterEntryId: `dst_${n}`, payoutId: po(n, attempt), settledAt: t1 },
});
const failed = (n: number, attempt: number, failedAt: string): SplitEvent => ({
  type: 'split.roster_entry.failed',
  data: { splitId: 'spl_1', rosterEntryId: `dst_${n}`, payoutId: po(n, attempt), attempt, reason: 'rail said no', nextAttemptAt: failedAt, failedAt },
});
const reversed = (amount: string, fee = '0', reversalId = 'rev_a', requestHash = 'h_a'): SplitEvent => ({
  type: 'split.roster_entry.reversed',
  data: {
    splitId: 'spl_1',
    rosterEntryId: 'dst_1',
    reversalId,
    amountCents: amount,
    feeRefundedCents: fee,
    reason: 'wrong contractor',
    idempotencyKey: `key-${reversalId}`,
    requestHash,
    reversedBy: 'user:usr_sme',
    reversedAt: t2,
  },
});
const reverse = (amount: string, flags: { refundFee?: boolean; reversalId?: string; requestHash?: string; sme?: string; row?: number } = {}): SplitCommand => ({
  type: 'ReverseRow',
  data: {
    splitId: 'spl_1',
    smeCompanyId: flags.sme ?? 'co_sme',
    distributionId: `dst_${flags.row ?? 1}`,
    reversalId: flags.reversalId ?? 'rev_a',
    amountCents: amount,
    reason: 'wrong contractor',
    refundFee: flags.refundFee ?? false,
    idempotencyKey: `key-${flags.reversalId ?? 'rev_a'}`,
    requestHash: flags.requestHash ?? 'h_a',
  },
  metadata: { now: t2, actor: 'user:usr_sme' },
});
const transferred = [created(rows, '15000', '0'), approved, funded('15000'), started(1), settled(1)];

describe('row reversals (issue 26 item 3)', () => {
  it('takes back part of a transferred row', () =>
    given(splitDecider, ...transferred)
      .when(reverse('2500'))
      .then([reversed('2500')]));

  it('with refundFee, gives back the share of the fee in proportion to the part reversed, rounded down', () =>
    // 150 x 2500 / 9850 = 38.07...: 38.
    given(splitDecider, ...transferred)
      .when(reverse('2500', { refundFee: true }))
      .then([reversed('2500', '38')]));

  it('counts the fee share on the running total, so a row reversed in full gives back the whole fee', () =>
    // After 2500 (38): 150 x 9850 / 9850 - 38 = 112; 38 + 112 = 150.
    given(splitDecider, ...transferred, reversed('2500', '38'))
      .when(reverse('7350', { refundFee: true, reversalId: 'rev_b', requestHash: 'h_b' }))
      .then([reversed('7350', '112', 'rev_b', 'h_b')]));

  it('gives back no fee on a row that paid none', () =>
    given(splitDecider, created(rows, '15000', '0'), approved, funded('15000'), started(2), settled(2))
      .when(reverse('5000', { refundFee: true, row: 2 }))
      .then((events) => expect(events[0]!.data).toMatchObject({ rosterEntryId: 'dst_2', amountCents: '5000', feeRefundedCents: '0' })));

  it('refuses more than the net transfer: 422 REVERSAL_EXCEEDS_TRANSFERRED', () =>
    given(splitDecider, ...transferred)
      .when(reverse('9851'))
      .thenFails('REVERSAL_EXCEEDS_TRANSFERRED', (error) => expect(error.details[0]).toMatchObject({ field: 'amountCents', reversibleCents: '9850' })));

  it('refuses more than the net less earlier reversals', () =>
    given(splitDecider, ...transferred, reversed('9000'))
      .when(reverse('851', { reversalId: 'rev_b', requestHash: 'h_b' }))
      .thenFails('REVERSAL_EXCEEDS_TRANSFERRED', (error) => expect(error.details[0]).toMatchObject({ reversibleCents: '850' })));

  it('reverses exactly what is left', () =>
    given(splitDecider, ...transferred, reversed('9000'))
      .when(reverse('850', { reversalId: 'rev_b', requestHash: 'h_b' }))
      .then([reversed('850', '0', 'rev_b', 'h_b')]));

  it('refuses a row not transferred yet: 409 DISTRIBUTION_NOT_TRANSFERRED', () =>
    given(splitDecider, ...transferred)
      .when(reverse('100', { row: 2 }))
      .thenFails('DISTRIBUTION_NOT_TRANSFERRED'));

  it('refuses a zero or malformed amount: 400 REVERSAL_AMOUNT_INVALID', () => {
    given(splitDecider, ...transferred)
      .when(reverse('0'))
      .thenFails('REVERSAL_AMOUNT_INVALID');
    given(splitDecider, ...transferred)
      .when(reverse('007'))
      .thenFails('REVERSAL_AMOUNT_INVALID');
  });

  it("answers another company's or an unknown Split as not found, and an unknown row as DISTRIBUTION_NOT_FOUND", () => {
    given(splitDecider, ...transferred)
      .when(reverse('100', { sme: 'co_other' }))
      .thenFails('SPLIT_NOT_FOUND');
    given(splitDecider).when(reverse('100')).thenFails('SPLIT_NOT_FOUND');
    given(splitDecider, ...transferred)
      .when(reverse('100', { row: 9 }))
      .thenFails('DISTRIBUTION_NOT_FOUND');
  });

  it('replays the same idempotency key and request as nothing new', () =>
    given(splitDecider, ...transferred, reversed('2500'))
      .when(reverse('2500'))
      .thenNothing());

  it('refuses the same idempotency key with another request: 409 IDEMPOTENCY_KEY_REUSED', () =>
    given(splitDecider, ...transferred, reversed('2500'))
      .when(reverse('2600', { requestHash: 'h_other' }))
      .thenFails('IDEMPOTENCY_KEY_REUSED'));
});

describe('rows that fail for good (issue 26 item 4)', () => {
  const fail = (attempt: number, now: string): SplitCommand => ({
    type: 'FailRowTransfer',
    data: { splitId: 'spl_1', distributionId: 'dst_2', payoutId: po(2, attempt), reason: 'rail said no', nextAttemptAt: now },
    metadata: { now, actor: 'system' },
  });
  const failedForGood = (attempt: number, now: string): SplitEvent => ({
    type: 'split.roster_entry.failed_for_good',
    data: { splitId: 'spl_1', rosterEntryId: 'dst_2', payoutId: po(2, attempt), attempt, reason: 'rail said no', firstFailedAt: t1, failedAt: now },
  });
  const failing = [created(rows, '15000', '0'), approved, funded('15000'), started(1), settled(1), started(2, 1), failed(2, 1, t1), started(2, 2)];
  const givenUp = [...failing, failedForGood(2, at(TRANSFER_RETRY_HORIZON_DAYS))];
  const vendor9: ResolvedContractor = { kind: 'sub_vendor', subVendorId: 'sv_9', creatorProfileId: null, displayName: 'Vendor 9', email: 'v9@example.com', walletEmail: null };
  const repoint = (contractor: ResolvedContractor = vendor9, distributionId = 'dst_2'): SplitCommand => ({
    type: 'RepointRow',
    data: { splitId: 'spl_1', smeCompanyId: 'co_sme', distributionId, contractor },
    metadata: { now: at(31), actor: 'user:usr_sme' },
  });
  const takeBack = (distributionId = 'dst_2'): SplitCommand => ({
    type: 'TakeBackRow',
    data: { splitId: 'spl_1', smeCompanyId: 'co_sme', distributionId },
    metadata: { now: at(31), actor: 'user:usr_sme' },
  });

  it('keeps retrying a failure inside the horizon', () =>
    given(splitDecider, ...failing)
      .when(fail(2, at(TRANSFER_RETRY_HORIZON_DAYS - 0.01)))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.roster_entry.failed'])));

  it(`fails the row for good at the first failure ${TRANSFER_RETRY_HORIZON_DAYS} days or more after its first`, () =>
    given(splitDecider, ...failing)
      .when(fail(2, at(TRANSFER_RETRY_HORIZON_DAYS)))
      .then([failedForGood(2, at(TRANSFER_RETRY_HORIZON_DAYS))]));

  it('starts no transfer for a row failed for good (a retry timer still due does nothing)', () =>
    given(splitDecider, ...givenUp)
      .when({ type: 'StartRowTransfer', data: { splitId: 'spl_1', distributionId: 'dst_2', instant: false, earlyPayoutFeeBps: 150 }, metadata: { now: at(31), actor: 'system' } })
      .thenNothing());

  it('re-points the row to another contractor of the roster', () =>
    given(splitDecider, ...givenUp)
      .when(repoint())
      .then([
        {
          type: 'split.roster_entry.repointed',
          data: {
            splitId: 'spl_1',
            rosterEntryId: 'dst_2',
            contractor: {
              contractorPaymentProfileId: null,
              subVendorId: 'sv_9',
              contractorDisplayName: 'Vendor 9',
              creatorProfileId: null,
              walletEmail: null,
              contractorEmail: 'v9@example.com',
            },
            repointedBy: 'user:usr_sme',
            repointedAt: at(31),
          },
        },
      ]));

  it('transfers a re-pointed row to its new contractor as the next attempt, and settles the Split with it', () => {
    const repointed = {
      type: 'split.roster_entry.repointed',
      data: {
        splitId: 'spl_1',
        rosterEntryId: 'dst_2',
        contractor: {
          contractorPaymentProfileId: null,
          subVendorId: 'sv_9',
          contractorDisplayName: 'Vendor 9',
          creatorProfileId: null,
          walletEmail: null,
          contractorEmail: 'v9@example.com',
        },
        repointedBy: 'u',
        repointedAt: at(31),
      },
    } as SplitEvent;
    given(splitDecider, ...givenUp, repointed)
      .when({ type: 'StartRowTransfer', data: { splitId: 'spl_1', distributionId: 'dst_2', instant: false, earlyPayoutFeeBps: 150 }, metadata: { now: at(31), actor: 'system' } })
      .then((events) => expect(events[0]!.data).toMatchObject({ attempt: 3, destination: 'v9@example.com', payoutId: po(2, 3) }));
    given(splitDecider, ...givenUp, repointed, { ...started(2, 3, 'v9@example.com') })
      .when({ type: 'CompleteRowTransfer', data: { splitId: 'spl_1', distributionId: 'dst_2', payoutId: po(2, 3) }, metadata: { now: at(31), actor: 'system' } })
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.roster_entry.settled', 'split.settled']));
  });

  it('restarts the horizon for the new contractor', () => {
    const repointed = {
      type: 'split.roster_entry.repointed',
      data: {
        splitId: 'spl_1',
        rosterEntryId: 'dst_2',
        contractor: {
          contractorPaymentProfileId: null,
          subVendorId: 'sv_9',
          contractorDisplayName: 'Vendor 9',
          creatorProfileId: null,
          walletEmail: null,
          contractorEmail: 'v9@example.com',
        },
        repointedBy: 'u',
        repointedAt: at(31),
      },
    } as SplitEvent;
    given(splitDecider, ...givenUp, repointed, started(2, 3))
      .when(fail(3, at(32)))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.roster_entry.failed']));
  });

  it('refuses to re-point to a contractor already on the Split (or the one that failed): 400 REPOINT_CONTRACTOR_ALREADY_ON_SPLIT', () => {
    given(splitDecider, ...givenUp)
      .when(repoint({ ...vendor9, subVendorId: 'sv_1' }))
      .thenFails('REPOINT_CONTRACTOR_ALREADY_ON_SPLIT');
    given(splitDecider, ...givenUp)
      .when(repoint({ ...vendor9, subVendorId: 'sv_2' }))
      .thenFails('REPOINT_CONTRACTOR_ALREADY_ON_SPLIT');
  });

  it('refuses an early-payout row pointed at a contractor without a wallet: 422 REPOINT_NEEDS_WALLET_EMAIL', () => {
    const early = [row(1, '10000', { earlyPayoutElected: true, walletEmail: 'w1@example.com' })];
    given(
      splitDecider,
      created(early, '10000', '0'),
      approved,
      funded('10000'),
      started(1),
      failed(1, 1, t1),
      { ...started(1, 2) },
      {
        type: 'split.roster_entry.failed_for_good',
        data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: po(1, 2), attempt: 2, reason: 'x', firstFailedAt: t1, failedAt: at(30) },
      },
    )
      .when(repoint(vendor9, 'dst_1'))
      .thenFails('REPOINT_NEEDS_WALLET_EMAIL');
  });

  it('re-points or takes back only a row failed for good: 409 DISTRIBUTION_NOT_FAILED', () => {
    given(splitDecider, ...failing)
      .when(repoint())
      .thenFails('DISTRIBUTION_NOT_FAILED');
    given(splitDecider, ...failing)
      .when(takeBack())
      .thenFails('DISTRIBUTION_NOT_FAILED');
    given(splitDecider, ...transferred)
      .when(takeBack('dst_1'))
      .thenFails('DISTRIBUTION_NOT_FAILED');
  });

  it('takes the row back to the SME and settles the Split when every other row is done', () =>
    given(splitDecider, ...givenUp)
      .when(takeBack())
      .then([
        { type: 'split.roster_entry.taken_back', data: { splitId: 'spl_1', rosterEntryId: 'dst_2', amountCents: '5000', takenBackBy: 'user:usr_sme', takenBackAt: at(31) } },
        { type: 'split.settled', data: { splitId: 'spl_1', settledAt: at(31) } },
      ]));

  it('takes a row back without settling while another row is still on its way; that row settles the Split', () => {
    const both = [created(rows, '15000', '0'), approved, funded('15000'), started(1), started(2, 1), failed(2, 1, t1), started(2, 2), failedForGood(2, at(30))];
    given(splitDecider, ...both)
      .when(takeBack())
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.roster_entry.taken_back']));
    const takenBack: SplitEvent = {
      type: 'split.roster_entry.taken_back',
      data: { splitId: 'spl_1', rosterEntryId: 'dst_2', amountCents: '5000', takenBackBy: 'u', takenBackAt: at(31) },
    };
    given(splitDecider, ...both, takenBack)
      .when({ type: 'CompleteRowTransfer', data: { splitId: 'spl_1', distributionId: 'dst_1', payoutId: po(1, 1) }, metadata: { now: at(31), actor: 'system' } })
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.roster_entry.settled', 'split.settled']));
  });

  it('refuses to re-point or take back a row of another company', () =>
    given(splitDecider, ...givenUp)
      .when({ type: 'TakeBackRow', data: { splitId: 'spl_1', smeCompanyId: 'co_other', distributionId: 'dst_2' }, metadata: { now: at(31), actor: 'u' } })
      .thenFails('SPLIT_NOT_FOUND'));
});
