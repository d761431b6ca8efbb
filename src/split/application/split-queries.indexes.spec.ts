import { recordingReader, SentQuery, servedByIndex } from '../../../test/support/index-coverage';
import { SystemClock } from '../../platform/clock/clock';
import { loadConfig } from '../../platform/config/app-config';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SplitReadModelProjection } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';

/**
 * The SME's and the enterprise's Split lists count their matches for the page's total: a filter no index
 * leads with reads every one of the company's Splits (docs/decisions.md, "Indexes for the merchant's order lists").
 */
describe('SplitQueries: every filter the Split lists send is served by an index', () => {
  const collections = new SplitReadModelProjection().collections;

  it('given each party, status and bill-status filter the lists take, then each query has an index', async () => {
    const sent: SentQuery[] = [];
    // The lists wait for the projection first; here every write has been applied already.
    const caughtUp = { afterHead: async () => undefined } as unknown as ReadYourWrites;
    const queries = new SplitQueries(recordingReader(sent), null as unknown as AggregateRepository, caughtUp, new SystemClock(), loadConfig({ SANDBOX: 'true' }));

    for (const party of ['sme', 'enterprise'] as const) {
      await queries.list('co_1', party, 1, 20);
      await queries.list('co_1', party, 1, 20, 'FUNDED');
      await queries.list('co_1', party, 1, 20, undefined, ['OPEN', 'OVERDUE']);
    }
    await queries.overdueInvoiceOf('co_1');

    expect(sent.length).toBeGreaterThanOrEqual(17);
    expect(sent.filter((query) => !servedByIndex(collections, query))).toEqual([]);
  });
});
