import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { Posting } from '../domain/posting';
import { LEDGER_POSTINGS, LEDGER_SPLITS, LedgerProjection, LedgerSplit } from '../projections/ledger.projection';
import { verifyLedger } from './ledger-verifier';

/** Issue 27: the collection and bank_transfer rules of ledger:verify, over events as the modules record them. */
describe('ledger: collection of a Split from its enterprise', () => {
  const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
  let position = 0;
  const at = (type: string, streamId: string, data: Record<string, unknown>): RecordedEvent =>
    ({
      id: `evt-${position}`,
      type,
      data,
      streamId,
      revision: 0,
      position: ++position,
      metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: 'x' },
    }) as RecordedEvent;
  const funded = [
    at('split.created', 'split-spl_1', {
      splitId: 'spl_1',
      smeCompanyId: 'co_sme',
      enterpriseCompanyId: 'co_ent',
      currency: 'USD',
      totalAmountCents: '1000',
      marginAmountCents: '0',
      enterpriseFeeAmountCents: '10',
      distributions: [],
    }),
    at('split.funded', 'split-spl_1', { splitId: 'spl_1', legAPayoutId: 'po_a', rosterSumCents: '1000', feeBufferAmountCents: '0', fundedAt: 'x' }),
  ];
  const issued = at('invoice.issued', 'invoice-inv_1', { invoiceId: 'inv_1', splitId: 'spl_1', collectionStatus: 'OPEN', amountCents: '1010', currency: 'USD' });
  const payment = (paymentId: string, method: string, amountCents: string, appliedCents: string) =>
    at('invoice.payment_recorded', 'invoice-inv_1', {
      invoiceId: 'inv_1',
      splitId: 'spl_1',
      enterpriseCompanyId: 'co_ent',
      currency: 'USD',
      paymentId,
      method,
      amountCents,
      appliedCents,
      overpaidCents: (BigInt(amountCents) - BigInt(appliedCents)).toString(),
      outstandingCents: '0',
      collectionStatus: 'PAID',
      receivedAt: 'x',
    });
  const transfer = (transferId: string, status: 'MATCHED' | 'PARKED', amountCents: string) =>
    at('bank_transfer.received', `banktransfer-${transferId}`, {
      transferId,
      reference: 'PS-X',
      currency: 'USD',
      amountCents,
      status,
      invoiceId: status === 'MATCHED' ? 'inv_1' : null,
      enterpriseCompanyId: null,
      parkedReason: status === 'PARKED' ? 'unknown reference' : null,
      receivedAt: 'x',
    });

  async function verify(events: RecordedEvent[]) {
    const projection = new LedgerProjection();
    const writer = new StagedWriter(NOTHING);
    for (const event of events) if (projection.handles(event)) await projection.apply(event, writer);
    const docs = writer.writes().flatMap((w) => (w.kind === 'put' ? [w] : []));
    return verifyLedger(
      docs.filter((w) => w.collection === LEDGER_POSTINGS).map((w) => w.doc as Posting),
      docs.filter((w) => w.collection === LEDGER_SPLITS).map((w) => w.doc as LedgerSplit),
    );
  }

  it('is clean on a Split funded before invoices: it owes its whole total + fee', async () => {
    const report = await verify(funded);
    expect(report).toMatchObject({ violations: [], invoicedSplits: 0, collectedSplits: 0 });
  });

  it('is clean when a card payment and a matched bank transfer (with an overpayment) collect the bill, and a parked transfer waits', async () => {
    const report = await verify([
      ...funded,
      issued,
      payment('ord_1', 'CARD', '400', '400'),
      transfer('btr_1', 'MATCHED', '700'),
      payment('btr_1', 'BANK_TRANSFER', '700', '610'),
      transfer('btr_2', 'PARKED', '5'),
    ]);
    expect(report).toMatchObject({ violations: [], invoicedSplits: 1, collectedSplits: 1, bankTransfers: 2, parkedTransfers: 1 });
  });

  it('flags a matched transfer that no collection applied', async () => {
    const report = await verify([...funded, issued, transfer('btr_1', 'MATCHED', '700')]);
    expect(report.violations).toEqual([{ rule: 'bank_transfer', message: 'btr_1: matched to an invoice but applied 0 times' }]);
  });

  it('flags a receivable driven below zero by collections beyond what was billed', async () => {
    const report = await verify([...funded, issued, payment('ord_1', 'CARD', '1010', '1010'), payment('ord_2', 'CARD', '5', '5')]);
    expect(report.violations.map((v) => v.rule)).toEqual(['collection']);
    expect(report.violations[0]!.message).toContain('went to -5');
  });
});
