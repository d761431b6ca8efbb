import { recordingReader, SentQuery, servedByIndex } from '../../../test/support/index-coverage';
import { loadConfig } from '../../platform/config/app-config';
import { COLLECTION_STATUSES } from '../../split';
import { InvoicesReadModelProjection } from '../projections/invoices-read-model.projection';
import { InvoiceQueries } from './invoice-queries';

/**
 * The enterprise's invoice list reads a page of invoices in due order and counts them: a status filter no index leads with
 * reads every invoice of the enterprise to find the few open ones (docs/decisions.md, "Indexes for the
 * merchant's order lists").
 */
describe('InvoiceQueries: every filter the invoice and bank-transfer lists send is served by an index', () => {
  const collections = new InvoicesReadModelProjection().collections;

  it('given the lists without and with each status filter, then each query has an index', async () => {
    const sent: SentQuery[] = [];
    const queries = new InvoiceQueries(recordingReader(sent), loadConfig({ SANDBOX: 'true' }));

    await queries.list('co_enterprise', undefined);
    for (const status of COLLECTION_STATUSES) await queries.list('co_enterprise', [status]);
    await queries.list('co_enterprise', ['OPEN', 'PARTIALLY_PAID'], 2, 20);
    await queries.byReference('PS 1234');
    await queries.bankTransfers();
    for (const status of ['MATCHED', 'PARKED', 'APPLIED', 'RETURNED'] as const) await queries.bankTransfers(status);

    // Each list is a find and a count; the two-status page is both for each status.
    expect(sent).toHaveLength(2 + 2 * COLLECTION_STATUSES.length + 4 + 6);
    expect(sent.filter((query) => !servedByIndex(collections, query))).toEqual([]);
  });
});
