import { recorded } from '../../../test/support/workflow-given-when-then';
import { invoiceCollectionWorkflow as workflow } from './invoice-collection.workflow';

/**
 * The runner processes the events of one partition in log order and different partitions concurrently
 * (EventProcessor.partitionOf): every event about one invoice must land in that invoice's partition.
 */
describe('Invoice collection workflow: partitions', () => {
  const partitionOf = (type: string, data: object) => workflow.partitionOf!(recorded(type, data));

  it('given the events of one invoice, from its funded Split to its payments, then each is in the invoice’s partition', () => {
    const invoice = { invoiceId: 'inv_01hzzzzzzzzzzzzzzzzzzzzzzz', splitId: 'spl_01hzzzzzzzzzzzzzzzzzzzzzzz' };
    expect([
      partitionOf('split.funded', { splitId: invoice.splitId, invoiced: true }),
      partitionOf('invoice.issued', { ...invoice, collectionStatus: 'OPEN' }),
      partitionOf('invoice.payment_recorded', { ...invoice, overpaidCents: '100' }),
      partitionOf('bank_transfer.received', { transferId: 'btr_1', invoiceId: invoice.invoiceId, status: 'MATCHED' }),
      partitionOf('bank_transfer.resolved', { transferId: 'btr_2', invoiceId: invoice.invoiceId, resolution: 'APPLIED' }),
    ]).toEqual(Array(5).fill(invoice.invoiceId));
  });

  it('given a paid card order, whose invoice only its own stream names, then it is in the order’s partition', () => {
    expect(partitionOf('checkout.order.paid', { orderId: 'ord_1', merchantCompanyId: 'co_collections', amountMinorUnits: '100' })).toBe('order:ord_1');
  });

  it('given two invoices, then their partitions differ', () => {
    expect(partitionOf('invoice.issued', { invoiceId: 'inv_a' })).not.toBe(partitionOf('invoice.issued', { invoiceId: 'inv_b' }));
  });
});
