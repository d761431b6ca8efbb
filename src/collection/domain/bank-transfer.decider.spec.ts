import { given } from '../../../test/support/given-when-then';
import { bankTransferDecider as decider } from './bank-transfer.decider';
import { BankTransferEvent } from './invoice.events';

const AT = '2026-03-10T12:00:00.000Z';
const received = (status: 'MATCHED' | 'PARKED', currency = 'USD'): BankTransferEvent => ({
  type: 'bank_transfer.received',
  data: {
    transferId: 'btr_1',
    reference: 'ACME MARCH',
    currency,
    amountCents: '5200',
    status,
    invoiceId: status === 'MATCHED' ? 'inv_1' : null,
    enterpriseCompanyId: status === 'MATCHED' ? 'co_ent' : null,
    parkedReason: status === 'PARKED' ? 'unknown reference' : null,
    receivedAt: AT,
  },
});
const apply = (invoiceId = 'inv_1', invoiceCurrency = 'USD') =>
  ({ type: 'Apply', data: { transferId: 'btr_1', invoiceId, invoiceCurrency, enterpriseCompanyId: 'co_ent' }, metadata: { now: AT, actor: 'system' } }) as const;
const giveBack = { type: 'Return', data: { transferId: 'btr_1' }, metadata: { now: AT, actor: 'system' } } as const;
const resolved = (resolution: 'APPLIED' | 'RETURNED', invoiceId: string | null = resolution === 'APPLIED' ? 'inv_1' : null): BankTransferEvent => ({
  type: 'bank_transfer.resolved',
  data: { transferId: 'btr_1', resolution, currency: 'USD', amountCents: '5200', invoiceId, enterpriseCompanyId: invoiceId ? 'co_ent' : null, resolvedAt: AT },
});

describe('Bank transfer decider (issue 27)', () => {
  it('applies a parked transfer to an invoice of its currency, once', () => {
    given(decider, received('PARKED'))
      .when(apply())
      .then([resolved('APPLIED')]);
    given(decider, received('PARKED'), resolved('APPLIED')).when(apply()).thenNothing();
  });

  it('returns a parked transfer to its sender, once', () => {
    given(decider, received('PARKED'))
      .when(giveBack)
      .then([resolved('RETURNED')]);
    given(decider, received('PARKED'), resolved('RETURNED')).when(giveBack).thenNothing();
  });

  it('resolves only a parked transfer: a matched, applied elsewhere or returned one is 409', () => {
    given(decider, received('MATCHED')).when(apply()).thenFails('BANK_TRANSFER_NOT_PARKED');
    given(decider, received('MATCHED')).when(giveBack).thenFails('BANK_TRANSFER_NOT_PARKED');
    given(decider, received('PARKED'), resolved('APPLIED')).when(apply('inv_2')).thenFails('BANK_TRANSFER_NOT_PARKED');
    given(decider, received('PARKED'), resolved('APPLIED')).when(giveBack).thenFails('BANK_TRANSFER_NOT_PARKED');
    given(decider, received('PARKED'), resolved('RETURNED')).when(apply()).thenFails('BANK_TRANSFER_NOT_PARKED');
  });

  it('refuses an invoice in another currency, and a transfer never received', () => {
    given(decider, received('PARKED', 'EUR')).when(apply()).thenFails('BANK_TRANSFER_CURRENCY_MISMATCH');
    given(decider).when(apply()).thenFails('BANK_TRANSFER_NOT_FOUND');
  });
});
