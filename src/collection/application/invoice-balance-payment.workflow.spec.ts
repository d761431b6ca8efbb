import { givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { invoiceBalancePaymentWorkflow as workflow } from './invoice-balance-payment.workflow';
import { RecordInvoicePaymentMessage } from './record-invoice-payment.handler';

describe('Invoice balance payment workflow', () => {
  it('records each debit of the balance on its invoice, under the same paymentId', () =>
    givenWorkflow(workflow, null)
      .when(
        recorded(
          'company_balance.invoice_paid',
          { companyId: 'co_ent', invoiceId: 'inv_1', paymentId: 'ipm_1', currency: 'USD', amountCents: '2500', paidAt: '2026-03-01T12:00:00.000Z' },
          'balance-co_ent',
          'evt-1',
        ),
      )
      .then({
        commands: [new RecordInvoicePaymentMessage('inv_1', 'ipm_1', 'BALANCE', '2500', { actor: 'system:collection', correlationId: expect.any(String), causationId: 'evt-1' })],
      }));
});
