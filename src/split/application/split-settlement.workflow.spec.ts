import { firing, givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { fold } from '../../platform/domain/decider';
import { RequestPayoutMessage } from '../../payouts';
import { withdrawalPayoutId } from '../domain/row-transfer-schedule';
import { splitDecider } from '../domain/split.decider';
import { SplitEvent } from '../domain/split.events';
import { approved, created, funded, row } from '../../../test/support/split-events';
import { CompleteRowTransferMessage } from './complete-row-transfer.handler';
import { FailRowTransferMessage } from './fail-row-transfer.handler';
import { FundSplitMessage } from './fund-split.handler';
import { ReleaseMarginAtNetTermsMessage } from './release-margin-at-net-terms.handler';
import { marginReleaseTimer, rowTransferTimer } from './split-settlement.timers';
import { splitSettlementWorkflow } from './split-settlement.workflow';
import { StartRowTransferMessage } from './start-row-transfer.handler';
import { StartInstantTransfersMessage } from './start-instant-transfers.handler';

const t0 = '2026-01-01T00:00:00.000Z';
const MATURITY = '2026-01-31T00:00:00.000Z';

const twoRowsCreated = (margin = '0') =>
  created([row(1, '1000', { earlyPayoutElected: true }), row(2, '1000')], String(2000 + Number(margin)), margin, { enterpriseCoversFee: true, enterpriseFeeAmountCents: '25' });
const fundedEvent = funded('2000');
const held: SplitEvent = { type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: '400', marginHoldStartedAt: t0 } };
const transferStarted = (attempt: number): SplitEvent => ({
  type: 'split.roster_entry.transfer_started',
  data: {
    splitId: 'spl_1',
    rosterEntryId: 'dst_1',
    payoutId: `po_t${attempt}`,
    attempt,
    instant: true,
    amountCents: '1000',
    feeAmountCents: '15',
    netAmountCents: '985',
    businessCoversFee: false,
    destination: 'v1@example.com',
    startedAt: t0,
  },
});

const split = (...events: SplitEvent[]) => fold(splitDecider, events);
const fromEvent = (event: SplitEvent) => ({ actor: 'system:split-settlement', correlationId: 'corr-1', causationId: `evt-${event.type}` });
const fromTimer = (id: string) => ({ actor: 'system:split-settlement', correlationId: id, causationId: null });
const payoutEvent = (type: 'payout.completed' | 'payout.failed', kind: string, payoutId: string, distributionId: string | null, extra: object = {}) =>
  recorded(type, { payoutId, kind, splitId: 'spl_1', distributionId, at: t0, ...extra }, `payout-${payoutId}`);

describe('split settlement workflow', () => {
  it('asks for the leg A payout of the total plus the fee the enterprise covers once the Split is approved', () => {
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved))
      .when(recorded('split.leg_a.approved', approved.data, 'split-spl_1'))
      .then({
        commands: [
          new RequestPayoutMessage(
            { payoutId: 'po_a', kind: 'leg_a', splitId: 'spl_1', distributionId: null, amountCents: '2025', currency: 'USD', destination: null, attempt: 1 },
            fromEvent(approved),
          ),
        ],
      });
  });

  it('funds the Split when leg A completes', () => {
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved))
      .when(payoutEvent('payout.completed', 'leg_a', 'po_a', null))
      .then({ commands: [new FundSplitMessage('spl_1', { actor: 'system:split-settlement', correlationId: 'corr-1', causationId: 'evt-payout.completed' })] });
  });

  it('transfers instant rows at funding and sets timers at net-terms maturity for the other rows and the held margin', () => {
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated('400'), approved, fundedEvent, held))
      .when(recorded('split.funded', fundedEvent.data, 'split-spl_1'))
      .then({
        commands: [new StartInstantTransfersMessage('spl_1', ['dst_1'], fromEvent(fundedEvent))],
        timers: [rowTransferTimer.at(MATURITY, { splitId: 'spl_1', distributionId: 'dst_2', instant: false, attempt: 1 }), marginReleaseTimer.at(MATURITY, { splitId: 'spl_1' })],
      });
  });

  it('pays a started transfer out to the contractor', () => {
    const started = transferStarted(1);
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved, fundedEvent, started))
      .when(recorded(started.type, started.data, 'split-spl_1'))
      .then({
        commands: [
          new RequestPayoutMessage(
            {
              payoutId: 'po_t1',
              kind: 'leg_b_transfer',
              splitId: 'spl_1',
              distributionId: 'dst_1',
              amountCents: '985',
              currency: 'USD',
              destination: 'v1@example.com',
              attempt: 1,
            },
            fromEvent(started),
          ),
        ],
      });
  });

  it('settles a row whose transfer completed, then offers it to the auto-withdrawal', () => {
    const context = { actor: 'system:split-settlement', correlationId: 'corr-1', causationId: 'evt-payout.completed' };
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved, fundedEvent, transferStarted(1)))
      .when(payoutEvent('payout.completed', 'leg_b_transfer', 'po_t1', 'dst_1'))
      .then({
        commands: [new CompleteRowTransferMessage('spl_1', 'dst_1', 'po_t1', withdrawalPayoutId('spl_1', 'dst_1'), context)],
      });
  });

  it('records a failed transfer and retries it after 1 minute, then 10 minutes', () => {
    const context = { actor: 'system:split-settlement', correlationId: 'corr-1', causationId: 'evt-payout.failed' };
    const failed = payoutEvent('payout.failed', 'leg_b_transfer', 'po_t1', 'dst_1', { reason: 'refused' });
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved, fundedEvent, transferStarted(1)))
      .when(failed)
      .then({
        commands: [new FailRowTransferMessage('spl_1', 'dst_1', 'po_t1', 'refused', '2026-03-01T12:01:00.000Z', context)],
        timers: [rowTransferTimer.at('2026-03-01T12:01:00.000Z', { splitId: 'spl_1', distributionId: 'dst_1', instant: true, attempt: 2 })],
      });
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved, fundedEvent, transferStarted(1), transferStarted(2)))
      .when(payoutEvent('payout.failed', 'leg_b_transfer', 'po_t2', 'dst_1', { reason: 'refused' }))
      .then({
        commands: [new FailRowTransferMessage('spl_1', 'dst_1', 'po_t2', 'refused', '2026-03-01T12:10:00.000Z', context)],
        timers: [rowTransferTimer.at('2026-03-01T12:10:00.000Z', { splitId: 'spl_1', distributionId: 'dst_1', instant: true, attempt: 3 })],
      });
  });

  it('starts the transfer a row timer is for, and releases the margin when its timer fires', () => {
    const state = split(twoRowsCreated('400'), approved, fundedEvent, held);
    const rowTimer = rowTransferTimer.at(MATURITY, { splitId: 'spl_1', distributionId: 'dst_2', instant: false, attempt: 1 });
    givenWorkflow(splitSettlementWorkflow, state)
      .when(firing(rowTimer))
      .then({ commands: [new StartRowTransferMessage('spl_1', 'dst_2', false, fromTimer(rowTimer.id))] });
    const marginTimer = marginReleaseTimer.at(MATURITY, { splitId: 'spl_1' });
    givenWorkflow(splitSettlementWorkflow, state)
      .when(firing(marginTimer))
      .then({ commands: [new ReleaseMarginAtNetTermsMessage('spl_1', fromTimer(marginTimer.id))] });
  });

  it('leaves rows already paid alone: a row timer after an early SETTLED, and split.funded replayed, keep only the margin (issue 23)', () => {
    const settledRow = (n: number): SplitEvent => ({
      type: 'split.roster_entry.settled',
      data: { splitId: 'spl_1', rosterEntryId: `dst_${n}`, payoutId: `po_t${n}`, settledAt: t0 },
    });
    const secondStarted: SplitEvent = { ...transferStarted(1), data: { ...transferStarted(1).data, rosterEntryId: 'dst_2', payoutId: 'po_t2', instant: true } } as SplitEvent;
    // Row 1 instant at funding, row 2 paid out on demand: the Split SETTLED before maturity, its margin still held.
    const state = split(twoRowsCreated('400'), approved, fundedEvent, held, transferStarted(1), secondStarted, settledRow(1), settledRow(2), {
      type: 'split.settled',
      data: { splitId: 'spl_1', settledAt: t0 },
    });
    const rowTimer = rowTransferTimer.at(MATURITY, { splitId: 'spl_1', distributionId: 'dst_2', instant: false, attempt: 1 });
    givenWorkflow(splitSettlementWorkflow, state).when(firing(rowTimer)).thenNothing();
    givenWorkflow(splitSettlementWorkflow, state)
      .when(recorded('split.funded', fundedEvent.data, 'split-spl_1'))
      .then({ commands: [], timers: [marginReleaseTimer.at(MATURITY, { splitId: 'spl_1' })] });
  });

  it('starts the transfer of a row re-pointed after it failed for good, with its fee terms (issue 26)', () => {
    const failedForGood: SplitEvent = {
      type: 'split.roster_entry.failed_for_good',
      data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_t1', attempt: 1, reason: 'x', firstFailedAt: t0, failedAt: MATURITY },
    };
    const repointed: SplitEvent = {
      type: 'split.roster_entry.repointed',
      data: {
        splitId: 'spl_1',
        rosterEntryId: 'dst_1',
        contractor: {
          contractorPaymentProfileId: null,
          subVendorId: 'sv_9',
          contractorDisplayName: 'Vendor 9',
          creatorProfileId: null,
          walletEmail: 'w9@x.test',
          contractorEmail: 'v9@x.test',
        },
        repointedBy: 'user:usr_sme',
        repointedAt: MATURITY,
      },
    };
    givenWorkflow(splitSettlementWorkflow, split(twoRowsCreated(), approved, fundedEvent, transferStarted(1), failedForGood, repointed))
      .when(recorded(repointed.type, repointed.data, 'split-spl_1'))
      .then({ commands: [new StartRowTransferMessage('spl_1', 'dst_1', true, fromEvent(repointed))] });
  });

  it('does nothing for a Split it cannot find', () => {
    givenWorkflow(splitSettlementWorkflow, split())
      .when(payoutEvent('payout.completed', 'leg_a', 'po_a', null))
      .thenNothing();
  });

  it('follows only the payouts of Splits', () => {
    expect(splitSettlementWorkflow.handles(payoutEvent('payout.completed', 'merchant', 'po_m', null))).toBe(false);
    expect(splitSettlementWorkflow.handles(payoutEvent('payout.completed', 'leg_b_withdrawal', 'po_w', 'dst_1'))).toBe(false);
    expect(splitSettlementWorkflow.handles(payoutEvent('payout.failed', 'leg_b_transfer', 'po_t1', 'dst_1'))).toBe(true);
  });
});
