import { given } from '../../../test/support/given-when-then';
import { approved, created, funded, row } from '../../../test/support/split-events';
import { SplitCommand } from './split.commands';
import { splitDecider } from './split.decider';
import { SecondPersonAction, SplitEvent } from './split.events';
import { needsSecondPerson } from './split-second-person';
import { fold } from '../../platform/domain/decider';

// Issue 30, the SME-side two-person rule on a Split: above the SME's threshold (5000 here) a pay-out-now or an
// instant margin release is asked for by one member and confirmed by another; only then does money move.
const T = '2026-01-02T00:00:00.000Z';
const ANN = 'user:usr_ann';
const BOB = 'user:usr_bob';
const rows = [row(1, '10000', { walletEmail: 'w1@example.com' }), row(2, '3000', { walletEmail: 'w2@example.com' })];
const history: SplitEvent[] = [
  created(rows, '15000', '2000'),
  approved,
  funded('13000'),
  { type: 'split.margin.held', data: { splitId: 'spl_1', marginAmountCents: '2000', marginHoldStartedAt: T } },
];

const request = (action: SecondPersonAction, by = ANN, distributionId: string | null = action === 'pay_out_now' ? 'dst_1' : null, threshold = '1000'): SplitCommand => ({
  type: 'RequestSecondPerson',
  data: { splitId: 'spl_1', smeCompanyId: 'co_sme', action, distributionId, aboveAmountCents: threshold },
  metadata: { now: T, actor: by },
});
const confirm = (action: SecondPersonAction, by = BOB, distributionId: string | null = action === 'pay_out_now' ? 'dst_1' : null, sme = 'co_sme'): SplitCommand => ({
  type: 'ConfirmSecondPerson',
  data: { splitId: 'spl_1', smeCompanyId: sme, action, distributionId },
  metadata: { now: T, actor: by },
});
const requested = (action: SecondPersonAction, by = ANN): SplitEvent => ({
  type: 'split.second_person.requested',
  data: {
    splitId: 'spl_1',
    action,
    rosterEntryId: action === 'pay_out_now' ? 'dst_1' : null,
    amountCents: action === 'pay_out_now' ? '10000' : '2000',
    aboveAmountCents: '1000',
    requestedBy: by,
    requestedAt: T,
  },
});
const startedNow: SplitCommand = {
  type: 'StartRowTransfer',
  data: { splitId: 'spl_1', distributionId: 'dst_1', instant: true, onDemand: true, earlyPayoutFeeBps: 150 },
  metadata: { now: T, actor: 'system' },
};

describe('Split: the SME-side two-person rule (issue 30)', () => {
  it('needs a second person only above the threshold, and never without one', () => {
    const state = fold(splitDecider, history);
    expect(needsSecondPerson(state, 'pay_out_now', 'dst_1', '5000')).toBe(true);
    expect(needsSecondPerson(state, 'pay_out_now', 'dst_2', '5000')).toBe(false);
    expect(needsSecondPerson(state, 'pay_out_now', 'dst_1', '10000')).toBe(false);
    expect(needsSecondPerson(state, 'settle_margin', null, '1999')).toBe(true);
    expect(needsSecondPerson(state, 'settle_margin', null, null)).toBe(false);
  });

  describe('asking', () => {
    it('records a pay-out-now request with the row amount and who asked', () =>
      given(splitDecider, ...history)
        .when(request('pay_out_now'))
        .then([requested('pay_out_now')]));

    it('records a margin release request with the margin amount', () =>
      given(splitDecider, ...history)
        .when(request('settle_margin'))
        .then([requested('settle_margin')]));

    it('decides nothing when the same request already waits (a retry, or another member asking)', () =>
      given(splitDecider, ...history, requested('pay_out_now'))
        .when(request('pay_out_now', BOB))
        .thenNothing());

    it('refuses what could not be done now: a row already paid out', () =>
      given(splitDecider, ...history, ...splitDecider.decide(startedNow, fold(splitDecider, history)))
        .when(request('pay_out_now'))
        .thenFails('DISTRIBUTION_ALREADY_PAID_OUT'));

    it('refuses a margin already released', () =>
      given(splitDecider, ...history, { type: 'split.margin.settled', data: marginSettledData() })
        .when(request('settle_margin'))
        .thenFails('SPLIT_MARGIN_NOT_SETTLEABLE'));

    it("refuses another company's Split", () =>
      given(splitDecider, ...history)
        .when({ ...request('pay_out_now'), data: { ...(request('pay_out_now').data as object), smeCompanyId: 'co_other' } } as SplitCommand)
        .thenFails('SPLIT_NOT_FOUND'));
  });

  describe('confirming', () => {
    it('refuses the member who asked (403 SELF_APPROVAL)', () =>
      given(splitDecider, ...history, requested('pay_out_now'))
        .when(confirm('pay_out_now', ANN))
        .thenFails('SELF_APPROVAL', (error) => expect(error.kind).toBe('forbidden')));

    it('records a second member confirming', () =>
      given(splitDecider, ...history, requested('settle_margin'))
        .when(confirm('settle_margin'))
        .then([
          {
            type: 'split.second_person.confirmed',
            data: { splitId: 'spl_1', action: 'settle_margin', rosterEntryId: null, requestedBy: ANN, confirmedBy: BOB, confirmedAt: T },
          },
        ]));

    it('refuses when nothing waits (409 SPLIT_NOTHING_TO_CONFIRM): never asked', () =>
      given(splitDecider, ...history)
        .when(confirm('pay_out_now'))
        .thenFails('SPLIT_NOTHING_TO_CONFIRM', (error) => expect(error.kind).toBe('conflict')));

    it('refuses a second confirmation: the first one ended the wait', () =>
      given(splitDecider, ...history, requested('pay_out_now'), ...splitDecider.decide(confirm('pay_out_now'), fold(splitDecider, [...history, requested('pay_out_now')])))
        .when(confirm('pay_out_now', 'user:usr_cat'))
        .thenFails('SPLIT_NOTHING_TO_CONFIRM'));

    it('ends the wait of a row whose transfer started another way (its payday)', () => {
      const asked = [...history, requested('pay_out_now')];
      given(splitDecider, ...asked, ...splitDecider.decide({ ...startedNow, data: { ...(startedNow.data as object), onDemand: false } } as SplitCommand, fold(splitDecider, asked)))
        .when(confirm('pay_out_now'))
        .thenFails('SPLIT_NOTHING_TO_CONFIRM');
    });

    it("refuses another company's member", () =>
      given(splitDecider, ...history, requested('pay_out_now'))
        .when(confirm('pay_out_now', BOB, 'dst_1', 'co_other'))
        .thenFails('SPLIT_NOT_FOUND'));

    it('lets the money move after the confirmation, in the same decision', () => {
      const afterConfirm = fold(splitDecider, [
        ...history,
        requested('pay_out_now'),
        ...splitDecider.decide(confirm('pay_out_now'), fold(splitDecider, [...history, requested('pay_out_now')])),
      ]);
      expect(splitDecider.decide(startedNow, afterConfirm).map((e) => e.type)).toEqual(['split.roster_entry.transfer_started']);
    });
  });

  it('folds Splits written before the rule: nothing waits', () => {
    const state = fold(splitDecider, history);
    expect('secondPersonRequests' in state ? state.secondPersonRequests : undefined).toBeUndefined();
  });
});

function marginSettledData(): Extract<SplitEvent, { type: 'split.margin.settled' }>['data'] {
  const state = fold(splitDecider, history);
  const events = splitDecider.decide({ type: 'SettleMargin', data: { splitId: 'spl_1', smeCompanyId: 'co_sme' }, metadata: { now: T, actor: ANN } }, state);
  return (events[0] as Extract<SplitEvent, { type: 'split.margin.settled' }>).data;
}
