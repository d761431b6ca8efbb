import { given } from '../../../test/support/given-when-then';
import { fold } from '../../platform/domain/decider';
import { companyBalanceDecider as decider } from './company-balance.decider';
import { BalanceEvent } from './payout-embed.events';

const NOW = '2026-03-01T12:00:00.000Z';
const topUp = (amountCents: string, topUpId = 't1', currency = 'USD'): BalanceEvent => ({
  type: 'company_balance.topped_up',
  data: { companyId: 'co_1', topUpId, currency, amountCents, toppedUpAt: NOW },
});
const reserve = (sessionId: string, amountCents: string, requestHash = `h-${sessionId}`, currency = 'USD') =>
  ({ type: 'Reserve', data: { companyId: 'co_1', sessionId, currency, amountCents, requestHash }, metadata: { now: NOW, actor: 'system' } }) as const;
const reserved = (sessionId: string, amountCents: string, currency = 'USD'): BalanceEvent => ({
  type: 'company_balance.reserved',
  data: { companyId: 'co_1', sessionId, currency, amountCents, requestHash: `h-${sessionId}`, reservedAt: NOW },
});
const released = (sessionId: string, amountCents: string): BalanceEvent => ({
  type: 'company_balance.reservation_released',
  data: { companyId: 'co_1', sessionId, currency: 'USD', amountCents, reason: 'cancelled', releasedAt: NOW },
});
const paid = (sessionId: string, amountCents: string): BalanceEvent => ({
  type: 'company_balance.reservation_paid',
  data: { companyId: 'co_1', sessionId, currency: 'USD', amountCents, payoutId: 'po_1', walletEmail: 'w@x.example', paidAt: NOW },
});

describe('company balance decider', () => {
  it('tops up once per top-up id', () => {
    given(decider)
      .when({ type: 'TopUp', data: { companyId: 'co_1', topUpId: 't1', currency: 'USD', amountCents: '500' }, metadata: { now: NOW, actor: 'system' } })
      .then([topUp('500')]);
    given(decider, topUp('500'))
      .when({ type: 'TopUp', data: { companyId: 'co_1', topUpId: 't1', currency: 'USD', amountCents: '500' }, metadata: { now: NOW, actor: 'system' } })
      .thenNothing();
  });
  it('reserves what the balance covers, exactly to zero', () =>
    given(decider, topUp('500'))
      .when(reserve('pes_1', '500'))
      .then([reserved('pes_1', '500')]));
  it('refuses a reservation the balance does not cover, with nothing appended', () =>
    given(decider, topUp('500'), reserved('pes_1', '300'))
      .when(reserve('pes_2', '201'))
      .thenFails('PAYOUT_INSUFFICIENT_BALANCE', (e) => {
        expect(e.kind).toBe('unprocessable');
        expect(e.details[0]).toMatchObject({ availableCents: '200', currency: 'USD' });
      }));
  it('keeps currencies apart', () =>
    given(decider, topUp('500', 't1', 'EUR'))
      .when(reserve('pes_1', '1'))
      .thenFails('PAYOUT_INSUFFICIENT_BALANCE'));
  it('decides nothing for the same reservation again', () => given(decider, topUp('500'), reserved('pes_1', '500')).when(reserve('pes_1', '500')).thenNothing());
  it('refuses the same session id with another request', () =>
    given(decider, topUp('500'), reserved('pes_1', '500'))
      .when(reserve('pes_1', '400', 'other'))
      .thenFails('IDEMPOTENCY_KEY_REUSED'));
  it('releases a reservation once', () => {
    given(decider, topUp('500'), reserved('pes_1', '500'))
      .when({ type: 'Release', data: { sessionId: 'pes_1', reason: 'cancelled' }, metadata: { now: NOW, actor: 'system' } })
      .then([released('pes_1', '500')]);
    given(decider, topUp('500'), reserved('pes_1', '500'), released('pes_1', '500'))
      .when({ type: 'Release', data: { sessionId: 'pes_1', reason: 'cancelled' }, metadata: { now: NOW, actor: 'system' } })
      .thenNothing();
  });
  it('pays a reservation once and never releases it afterwards', () => {
    given(decider, topUp('500'), reserved('pes_1', '500'))
      .when({ type: 'Pay', data: { sessionId: 'pes_1', payoutId: 'po_1', walletEmail: 'w@x.example' }, metadata: { now: NOW, actor: 'system' } })
      .then([paid('pes_1', '500')]);
    given(decider, topUp('500'), reserved('pes_1', '500'), paid('pes_1', '500'))
      .when({ type: 'Release', data: { sessionId: 'pes_1', reason: 'failed' }, metadata: { now: NOW, actor: 'system' } })
      .thenNothing();
  });
  it('refuses the same session id once its reservation was released as abandoned (its session was never written)', () =>
    given(decider, topUp('500'), reserved('pes_1', '500'), released('pes_1', '500')).when(reserve('pes_1', '500')).thenFails('PAYOUT_EMBED_RESERVATION_ABANDONED'));
  describe('paying what is not held (issue 23)', () => {
    const pay = { type: 'Pay', data: { sessionId: 'pes_1', payoutId: 'po_1', walletEmail: 'w@x.example' }, metadata: { now: NOW, actor: 'system' } } as const;
    it('refuses to pay a released reservation: the payout would be sent without a debit', () =>
      given(decider, topUp('500'), reserved('pes_1', '500'), released('pes_1', '500'))
        .when(pay)
        .thenFails('PAYOUT_EMBED_RESERVATION_NOT_HELD', (e) => expect(e.details).toEqual([{ field: 'sessionId', message: 'released' }])));
    it('refuses to pay a reservation it never made', () =>
      given(decider, topUp('500'))
        .when(pay)
        .thenFails('PAYOUT_EMBED_RESERVATION_NOT_HELD', (e) => expect(e.details).toEqual([{ field: 'sessionId', message: 'unknown' }])));
    it('decides nothing for a repeated pay', () => given(decider, topUp('500'), reserved('pes_1', '500'), paid('pes_1', '500')).when(pay).thenNothing());
  });
  it('ignores a release for a session it never reserved', () =>
    given(decider, topUp('500'))
      .when({ type: 'Release', data: { sessionId: 'pes_x', reason: 'expired' }, metadata: { now: NOW, actor: 'system' } })
      .thenNothing());
  it('folds available and reserved', () => {
    const state = fold(decider, [topUp('1000'), reserved('pes_1', '300'), reserved('pes_2', '200'), released('pes_1', '300'), paid('pes_2', '200')]);
    expect(state.available).toEqual({ USD: 800n });
    expect(state.reserved).toEqual({ USD: 0n });
  });
  it('released funds can be reserved again', () =>
    given(decider, topUp('500'), reserved('pes_1', '500'), released('pes_1', '500'))
      .when(reserve('pes_2', '500'))
      .then([reserved('pes_2', '500')]));

  describe('released Split margins', () => {
    const credit = (amountCents: string, splitId = 'spl_1') =>
      ({ type: 'CreditSplitMargin', data: { companyId: 'co_1', splitId, currency: 'USD', amountCents }, metadata: { now: NOW, actor: 'system' } }) as const;
    const credited = (amountCents: string, splitId = 'spl_1'): BalanceEvent => ({
      type: 'company_balance.split_margin_credited',
      data: { companyId: 'co_1', splitId, currency: 'USD', amountCents, creditedAt: NOW },
    });

    it('credits a Split margin once; a margin the covered fees used up credits nothing', () => {
      given(decider)
        .when(credit('4400'))
        .then([credited('4400')]);
      given(decider, credited('4400')).when(credit('4400')).thenNothing();
      given(decider).when(credit('0')).thenNothing();
    });
    it('makes the credited margin reservable, and no more', () => {
      given(decider, credited('4400'))
        .when(reserve('pes_1', '4400'))
        .then([reserved('pes_1', '4400')]);
      given(decider, credited('4400')).when(reserve('pes_1', '4401')).thenFails('PAYOUT_INSUFFICIENT_BALANCE');
    });
  });

  describe('fees an SME covers on a Split (issue 23)', () => {
    const setAside = (requiredCents: string, splitId = 'spl_1') =>
      ({ type: 'SetAsideSplitFees', data: { companyId: 'co_1', splitId, currency: 'USD', requiredCents }, metadata: { now: NOW, actor: 'system' } }) as const;
    const feesReserved = (amountCents: string, setAsideCents: string, splitId = 'spl_1'): BalanceEvent => ({
      type: 'company_balance.split_fees_reserved',
      data: { companyId: 'co_1', splitId, currency: 'USD', amountCents, setAsideCents, reservedAt: NOW },
    });
    const release = (keepCents: string, reason: 'rejected' | 'cancelled' | 'settled' = 'rejected', splitId = 'spl_1') =>
      ({ type: 'ReleaseSplitFees', data: { splitId, keepCents, reason }, metadata: { now: NOW, actor: 'system' } }) as const;
    const feesReleased = (amountCents: string, setAsideCents: string, reason: 'rejected' | 'cancelled' | 'settled' = 'rejected'): BalanceEvent => ({
      type: 'company_balance.split_fees_released',
      data: { companyId: 'co_1', splitId: 'spl_1', currency: 'USD', amountCents, setAsideCents, reason, releasedAt: NOW },
    });

    it('sets aside what the Split needs from the available balance, exactly to zero', () =>
      given(decider, topUp('15000'))
        .when(setAside('15000'))
        .then([feesReserved('15000', '15000')]));
    it('refuses with 422 SME_FEE_NOT_COVERED and sets nothing aside when the balance is short', () => {
      given(decider, topUp('14999'))
        .when(setAside('15000'))
        .thenFails('SME_FEE_NOT_COVERED', (e) => {
          expect(e.kind).toBe('unprocessable');
          expect(e.details[0]).toMatchObject({ field: 'businessCoversFee', availableCents: '14999', requiredCents: '15000', currency: 'USD', splitId: 'spl_1' });
        });
      given(decider).when(setAside('1')).thenFails('SME_FEE_NOT_COVERED');
    });
    it('only ever grows while the Split is open: a repeat or a smaller need sets nothing aside, a larger one the difference', () => {
      given(decider, topUp('500'), feesReserved('300', '300')).when(setAside('300')).thenNothing();
      given(decider, topUp('500'), feesReserved('300', '300')).when(setAside('100')).thenNothing();
      given(decider, topUp('500'), feesReserved('300', '300'))
        .when(setAside('450'))
        .then([feesReserved('150', '450')]);
      given(decider, topUp('500'), feesReserved('300', '300')).when(setAside('501')).thenFails('SME_FEE_NOT_COVERED');
    });
    it('keeps what is set aside out of reach of Payout Embed, and Payout Embed reservations out of reach of the fees', () => {
      given(decider, topUp('500'), feesReserved('300', '300')).when(reserve('pes_1', '201')).thenFails('PAYOUT_INSUFFICIENT_BALANCE');
      given(decider, topUp('500'), reserved('pes_1', '300')).when(setAside('201')).thenFails('SME_FEE_NOT_COVERED');
    });
    it('gives back what a rejected, cancelled or settled Split does not keep, once; sets nothing aside for it afterwards', () => {
      given(decider, topUp('500'), feesReserved('300', '300'))
        .when(release('0'))
        .then([feesReleased('300', '0')]);
      given(decider, topUp('500'), feesReserved('300', '300'))
        .when(release('250', 'settled'))
        .then([feesReleased('50', '250', 'settled')]);
      given(decider, topUp('500'), feesReserved('300', '300')).when(release('300', 'settled')).thenNothing();
      given(decider, topUp('500'), feesReserved('300', '300'), feesReleased('300', '0')).when(release('0')).thenNothing();
      given(decider, topUp('500'), feesReserved('300', '300'), feesReleased('300', '0')).when(setAside('300')).thenNothing();
      given(decider, topUp('500')).when(release('0')).thenNothing();
    });
    it('folds what is set aside out of the available balance and back', () => {
      expect(fold(decider, [topUp('1000'), feesReserved('300', '300'), feesReleased('50', '250', 'settled')]).available).toEqual({ USD: 750n });
    });
  });

  describe('Split money returned by a reversal or a take-back (issue 26)', () => {
    const ret = { companyId: 'co_1', splitId: 'spl_1', rosterEntryId: 'dst_1', currency: 'USD' };
    const credit = (returnId: string, amountCents: string, kind: 'reversal' | 'take_back' = 'reversal') =>
      ({ type: 'CreditSplitReturn', data: { ...ret, returnId, kind, amountCents }, metadata: { now: NOW, actor: 'system' } }) as const;
    const credited = (returnId: string, amountCents: string, kind: 'reversal' | 'take_back' = 'reversal'): BalanceEvent => ({
      type: 'company_balance.split_return_credited',
      data: { ...ret, returnId, kind, amountCents, creditedAt: NOW },
    });

    it('credits each return once: a replayed reversal or take-back credits nothing', () => {
      given(decider)
        .when(credit('rev_1', '2538'))
        .then([credited('rev_1', '2538')]);
      given(decider, credited('rev_1', '2538')).when(credit('rev_1', '2538')).thenNothing();
      given(decider, credited('rev_1', '2538'))
        .when(credit('rev_2', '100'))
        .then([credited('rev_2', '100')]);
      given(decider, credited('take_back:dst_1', '6000', 'take_back'))
        .when(credit('take_back:dst_1', '6000', 'take_back'))
        .thenNothing();
    });
    it('makes the returned money reservable, and no more', () => {
      given(decider, credited('rev_1', '2538'), credited('take_back:dst_2', '6000', 'take_back'))
        .when(reserve('pes_1', '8538'))
        .then([reserved('pes_1', '8538')]);
      given(decider, credited('rev_1', '2538')).when(reserve('pes_1', '2539')).thenFails('PAYOUT_INSUFFICIENT_BALANCE');
    });
  });
});
