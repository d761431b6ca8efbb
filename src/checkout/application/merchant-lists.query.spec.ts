import { recordingReader, SentQuery, servedByIndex } from '../../../test/support/index-coverage';
import { loadConfig } from '../../platform/config/app-config';
import { CheckoutReadModelProjection } from '../projections/checkout-read-model.projection';
import { MerchantListsQuery } from './merchant-lists.query';
import { CHECKOUT_ORDER_COUNTS, OrderCountsView } from '../projections/checkout-order-counts';
import { Doc } from '../../platform/read-store/document-store.port';

/**
 * Every list a merchant pages through counts its matches for the page's total. A filter no index leads
 * with made that COUNT read every one of the merchant's order documents: ~10 ms per list at 30,000 orders
 * in the mixed bench, stalling every other request of the api (docs/decisions.md, "Indexes for the
 * merchant's order lists").
 */
describe('MerchantListsQuery: every filter it sends is served by an index', () => {
  const collections = new CheckoutReadModelProjection().collections;

  it('given each way the dashboard and the API list orders and subscriptions, then each query has an index', async () => {
    const sent: SentQuery[] = [];
    const lists = new MerchantListsQuery(recordingReader(sent, [{ id: 'sub_1', subscriptionId: 'sub_1', merchantCompanyId: 'co_1' }]), loadConfig({ SANDBOX: 'true' }));

    await lists.orders('co_1', undefined, 1, 20);
    await lists.orders('co_1', 'PAID', 1, 20);
    await lists.orders('co_1', undefined, 1, 20, 'ref-1');
    await lists.orders('co_1', undefined, 1, 20, undefined, { from: '2026-01-01T00:00:00.000Z' });
    await lists.subscriptions('co_1', undefined, 1, 20);
    await lists.subscriptions('co_1', 'ACTIVE', 1, 20);
    await lists.paymentLinks('co_1', 1, 20);

    expect(sent.length).toBeGreaterThanOrEqual(14);
    expect(sent.filter((query) => !servedByIndex(collections, query))).toEqual([]);
  });

  it('when a filter has no index, then the check names it', () => {
    expect(servedByIndex(collections, { collection: 'checkout_orders', filter: { merchantCompanyId: 'co_1', currency: 'USD' } })).toBe(false);
  });
});

describe('MerchantListsQuery: the unnarrowed order lists read their total from the kept counts', () => {
  const counts: OrderCountsView = { id: 'co_1', listed: 41, statuses: { PAID: 7, OPEN: 34 } };
  const readerWith = (sent: SentQuery[], kept: OrderCountsView | null) => ({
    ...recordingReader(sent),
    get: async <T extends Doc>(collection: string, id: string) => (collection === CHECKOUT_ORDER_COUNTS && id === 'co_1' ? (kept as unknown as T) : null),
  });

  it('given counts kept for the merchant, then the default and status lists answer them and count nothing', async () => {
    const sent: SentQuery[] = [];
    const lists = new MerchantListsQuery(readerWith(sent, counts), loadConfig({ SANDBOX: 'true' }));

    expect((await lists.orders('co_1', undefined, 1, 20)).meta.total).toBe(41);
    expect((await lists.orders('co_1', 'PAID', 1, 20)).meta.total).toBe(7);
    expect((await lists.orders('co_1', 'REFUNDED', 1, 20)).meta.total).toBe(0);
    expect(sent.filter((query) => query.sortedBy === undefined)).toEqual([]);
  });

  it('given no counts (a merchant without orders, or a generation built before them), or a list narrowed by reference or date, then it counts', async () => {
    const sent: SentQuery[] = [];
    await new MerchantListsQuery(readerWith(sent, null), loadConfig({ SANDBOX: 'true' })).orders('co_1', undefined, 1, 20);
    const lists = new MerchantListsQuery(readerWith(sent, counts), loadConfig({ SANDBOX: 'true' }));
    await lists.orders('co_1', undefined, 1, 20, 'ref-1');
    await lists.orders('co_1', 'PAID', 1, 20, undefined, { to: '2026-01-01T00:00:00.000Z' });

    expect(sent.filter((query) => query.sortedBy === undefined).map((query) => query.filter)).toEqual([
      { merchantCompanyId: 'co_1', unlisted: null },
      { merchantCompanyId: 'co_1', externalOrderRef: 'ref-1' },
      { merchantCompanyId: 'co_1', status: 'PAID' },
    ]);
  });
});
