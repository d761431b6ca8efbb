import { approved, created, funded, row } from '../../../test/support/split-events';
import { fold } from '../../platform/domain/decider';
import { coveredFeeCover } from './covered-fees';
import { splitDecider } from './split.decider';
import { SplitEvent } from './split.events';
import { ExistingSplit } from './split.state';

const BPS = 150;
const drawn = { smeCoveredFeesDrawn: true };
const t = '2026-01-01T00:00:00.000Z';
const stateOf = (...events: SplitEvent[]) => fold(splitDecider, events) as ExistingSplit;
const cover = (...events: SplitEvent[]) => {
  const { coveredCents, fromMarginCents, fromBalanceCents } = coveredFeeCover(stateOf(...events), BPS);
  return { covered: coveredCents.toString(), fromMargin: fromMarginCents.toString(), fromBalance: fromBalanceCents.toString() };
};
const early = (n: number, amount: string) => row(n, amount, { earlyPayoutElected: true, businessCoversFee: true });

/** The one rule for what a Split's covered fees need of the SME's balance (docs/money.md#fees-the-sme-covers). */
describe('coveredFeeCover', () => {
  it('draws the whole fee of the issue-23 example from the balance: one row of 1000000, early, fee covered, no margin', () =>
    expect(cover(created([early(1, '1000000')], '1000000', '0', drawn))).toEqual({ covered: '15000', fromMargin: '0', fromBalance: '15000' }));

  it('lets a pending margin pay first, up to all of it', () => {
    expect(cover(created([early(1, '10000'), row(2, '5000')], '18000', '3000', drawn))).toEqual({ covered: '150', fromMargin: '150', fromBalance: '0' });
    expect(cover(created([early(1, '10000'), row(2, '5000')], '15100', '100', drawn))).toEqual({ covered: '150', fromMargin: '100', fromBalance: '50' });
  });

  it('counts only rows whose fee the SME covers and that pay out instantly', () =>
    expect(cover(created([row(1, '10000', { earlyPayoutElected: true }), row(2, '5000', { businessCoversFee: true })], '15000', '0', drawn))).toEqual({
      covered: '0',
      fromMargin: '0',
      fromBalance: '0',
    }));

  it('needs nothing of a rejected or cancelled Split, nor of one created before issue 23', () => {
    const rejected: SplitEvent = { type: 'split.leg_a.rejected', data: { splitId: 'spl_1', legAPayoutId: 'po_a', rejectedBy: 'u', reason: null, rejectedAt: t } };
    expect(cover(created([early(1, '10000')], '10000', '0', drawn), rejected).fromBalance).toBe('0');
    expect(cover(created([early(1, '10000')], '10000', '0')).fromBalance).toBe('0');
  });

  it('adds an on-demand covered fee to the balance once the margin is released', () => {
    const fundedWith = { ...funded('15000', '150'), data: { ...funded('15000', '150').data, feeCoverFromMarginCents: '150' } } as SplitEvent;
    const started: SplitEvent = {
      type: 'split.roster_entry.transfer_started',
      data: {
        splitId: 'spl_1',
        rosterEntryId: 'dst_2',
        payoutId: 'po_t2',
        attempt: 1,
        instant: true,
        amountCents: '5000',
        feeAmountCents: '75',
        netAmountCents: '5000',
        businessCoversFee: true,
        destination: null,
        startedAt: t,
      },
    };
    const released: SplitEvent = {
      type: 'split.margin.settled',
      data: {
        splitId: 'spl_1',
        smeCompanyId: 'co_sme',
        currency: 'USD',
        marginAmountCents: '3000',
        feeRecoveredCents: '0',
        creditedToBalanceCents: '2850',
        via: 'settle_call',
        releasedAt: t,
      },
    };
    const held: SplitEvent = { type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: '3000', marginHoldStartedAt: t } };
    const base = [created([early(1, '10000'), row(2, '5000', { businessCoversFee: true })], '18000', '3000', drawn), approved, fundedWith, held];
    expect(cover(...base, released, started)).toEqual({ covered: '225', fromMargin: '150', fromBalance: '75' });
  });
});
