import { given } from '../../../test/support/given-when-then';
import { invoiceDecider as decider } from './invoice.decider';
import { InvoiceEvent } from './invoice.events';

const ISSUED_AT = '2026-03-01T12:00:00.000Z';
const DUE_AT = '2026-03-31T12:00:00.000Z';
const LATER = '2026-03-10T12:00:00.000Z';
const facts = (collectionStatus: string) => ({ invoiceId: 'inv_1', splitId: 'spl_1', collectionStatus }) as { invoiceId: string; splitId: string; collectionStatus: 'OPEN' };
const issue = {
  invoiceId: 'inv_1',
  splitId: 'spl_1',
  smeCompanyId: 'co_sme',
  enterpriseCompanyId: 'co_ent',
  apContactBusinessProfileId: 'bp_1',
  currency: 'USD',
  amountCents: '1000',
  paymentReference: 'PS-ABC',
  issuedAt: ISSUED_AT,
  dueAt: DUE_AT,
};
const issued: InvoiceEvent = { type: 'invoice.issued', data: { ...issue, collectionStatus: 'OPEN' } };
const pay = (paymentId: string, amountCents: string, method: 'BALANCE' | 'CARD' | 'BANK_TRANSFER' = 'BALANCE', now = LATER) =>
  ({ type: 'RecordPayment', data: { invoiceId: 'inv_1', paymentId, method, amountCents }, metadata: { now, actor: 'system' } }) as const;
const recorded = (paymentId: string, amountCents: string, appliedCents: string, outstandingCents: string, status: string, method = 'BALANCE', receivedAt = LATER): InvoiceEvent =>
  ({
    type: 'invoice.payment_recorded',
    data: {
      ...facts(status),
      enterpriseCompanyId: 'co_ent',
      currency: 'USD',
      paymentId,
      method,
      amountCents,
      appliedCents,
      overpaidCents: (BigInt(amountCents) - BigInt(appliedCents)).toString(),
      outstandingCents,
      receivedAt,
    },
  }) as InvoiceEvent;
const paid = (paidAt = LATER): InvoiceEvent => ({
  type: 'invoice.paid',
  data: { ...facts('PAID'), collectionStatus: 'PAID', smeCompanyId: 'co_sme', enterpriseCompanyId: 'co_ent', currency: 'USD', amountCents: '1000', paidAt },
});
const overdue: InvoiceEvent = {
  type: 'invoice.overdue',
  data: {
    ...facts('OVERDUE'),
    collectionStatus: 'OVERDUE',
    smeCompanyId: 'co_sme',
    enterpriseCompanyId: 'co_ent',
    currency: 'USD',
    outstandingCents: '1000',
    dueAt: DUE_AT,
    overdueAt: DUE_AT,
  },
};

describe('invoice decider', () => {
  it('issues an invoice once, OPEN', () => {
    given(decider)
      .when({ type: 'IssueInvoice', data: issue, metadata: { now: issue.issuedAt, actor: 'system' } })
      .then([issued]);
    given(decider, issued)
      .when({ type: 'IssueInvoice', data: issue, metadata: { now: issue.issuedAt, actor: 'system' } })
      .thenNothing();
  });

  it('records a payment in full, then the invoice is paid', () =>
    given(decider, issued)
      .when(pay('ipm_1', '1000'))
      .then([recorded('ipm_1', '1000', '1000', '0', 'PAID'), paid()]));

  it('records a partial payment as PARTIALLY_PAID, and the second part pays it', () => {
    given(decider, issued)
      .when(pay('ord_1', '400', 'CARD'))
      .then([recorded('ord_1', '400', '400', '600', 'PARTIALLY_PAID', 'CARD')]);
    given(decider, issued, recorded('ord_1', '400', '400', '600', 'PARTIALLY_PAID', 'CARD'))
      .when(pay('btr_1', '600', 'BANK_TRANSFER'))
      .then([recorded('btr_1', '600', '600', '0', 'PAID', 'BANK_TRANSFER'), paid()]);
  });

  it('applies at most what is owed: the rest of an overpayment is overpaidCents', () =>
    given(decider, issued, recorded('ord_1', '400', '400', '600', 'PARTIALLY_PAID', 'CARD'))
      .when(pay('btr_1', '1000', 'BANK_TRANSFER'))
      .then([recorded('btr_1', '1000', '600', '0', 'PAID', 'BANK_TRANSFER'), paid()]));

  it('a payment to an invoice paid already is all overpayment, and pays nothing twice', () =>
    given(decider, issued, recorded('ipm_1', '1000', '1000', '0', 'PAID'), paid())
      .when(pay('btr_1', '250', 'BANK_TRANSFER'))
      .then([recorded('btr_1', '250', '0', '0', 'PAID', 'BANK_TRANSFER')]));

  it('records one payment id once', () =>
    given(decider, issued, recorded('ipm_1', '400', '400', '600', 'PARTIALLY_PAID'))
      .when(pay('ipm_1', '400'))
      .thenNothing());

  it('refuses a payment of nothing, and a payment to an invoice that does not exist', () => {
    given(decider, issued).when(pay('ipm_1', '0')).thenFails('INVOICE_PAYMENT_AMOUNT_INVALID');
    given(decider).when(pay('ipm_1', '100')).thenFails('INVOICE_NOT_FOUND');
  });

  it('becomes OVERDUE at the due date when money is still owed, once', () => {
    given(decider, issued)
      .when({ type: 'MarkOverdue', data: { invoiceId: 'inv_1' }, metadata: { now: DUE_AT, actor: 'system' } })
      .then([overdue]);
    given(decider, issued, overdue)
      .when({ type: 'MarkOverdue', data: { invoiceId: 'inv_1' }, metadata: { now: DUE_AT, actor: 'system' } })
      .thenNothing();
  });

  it('is not overdue before its due date, nor once paid', () => {
    given(decider, issued)
      .when({ type: 'MarkOverdue', data: { invoiceId: 'inv_1' }, metadata: { now: LATER, actor: 'system' } })
      .thenNothing();
    given(decider, issued, recorded('ipm_1', '1000', '1000', '0', 'PAID'), paid())
      .when({ type: 'MarkOverdue', data: { invoiceId: 'inv_1' }, metadata: { now: DUE_AT, actor: 'system' } })
      .thenNothing();
  });

  it('stays OVERDUE after a partial payment, and is PAID once the rest arrives', () => {
    given(decider, issued, overdue)
      .when(pay('ipm_1', '300'))
      .then([recorded('ipm_1', '300', '300', '700', 'OVERDUE')]);
    given(decider, issued, overdue, recorded('ipm_1', '300', '300', '700', 'OVERDUE'))
      .when(pay('ipm_2', '700'))
      .then([recorded('ipm_2', '700', '700', '0', 'PAID'), paid()]);
  });

  it('sends each reminder once, and none for a paid invoice', () => {
    const remind = { type: 'SendReminder', data: { invoiceId: 'inv_1', reminder: 'BEFORE_DUE' }, metadata: { now: LATER, actor: 'system' } } as const;
    const sent: InvoiceEvent = { type: 'invoice.reminder_sent', data: { ...facts('OPEN'), reminder: 'BEFORE_DUE', outstandingCents: '1000', sentAt: LATER } };
    given(decider, issued).when(remind).then([sent]);
    given(decider, issued, sent).when(remind).thenNothing();
    given(decider, issued, recorded('ipm_1', '1000', '1000', '0', 'PAID'), paid())
      .when(remind)
      .thenNothing();
  });
});
