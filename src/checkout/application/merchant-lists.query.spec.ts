import { loadConfig } from '../../platform/config/app-config';
import { Doc, DocumentReader, Filter } from '../../platform/read-store/document-store.port';
import { CheckoutReadModelProjection } from '../projections/checkout-read-model.projection';
import { MerchantListsQuery } from './merchant-lists.query';

/**
 * Every list a merchant pages through counts its matches for the page's total. A filter no index leads
 * with made that COUNT read every one of the merchant's order documents: ~10 ms per list at 30,000 orders
 * in the mixed bench, stalling every other request of the api (docs/decisions.md, "Indexes for the
 * merchant's order lists").
 */
describe('MerchantListsQuery: every filter it sends is served by an index', () => {
  interface Query {
    collection: string;
    filter: Filter;
  }

  function recordingReader(queries: Query[]): DocumentReader {
    return {
      get: async () => null,
      find: async <T extends Doc>(collection: string, options: { filter?: Filter } = {}) => {
        queries.push({ collection, filter: options.filter ?? {} });
        return [{ id: 'sub_1', subscriptionId: 'sub_1', merchantCompanyId: 'co_1' }] as unknown as T[];
      },
      count: async (collection, filter = {}) => {
        queries.push({ collection, filter });
        return 1;
      },
    };
  }

  /** An index serves an equality filter when its leading fields are exactly the filter's fields, in any order. */
  function servedByIndex({ collection, filter }: Query): boolean {
    const spec = new CheckoutReadModelProjection().collections.find((c) => c.name === collection);
    const fields = new Set(Object.keys(filter));
    return (spec?.indexes ?? []).some((index) => {
      const leading = index.slice(0, fields.size);
      return leading.length === fields.size && leading.every((field) => fields.has(field));
    });
  }

  it('given each way the dashboard and the API list orders and subscriptions, then each query has an index', async () => {
    const queries: Query[] = [];
    const lists = new MerchantListsQuery(recordingReader(queries), loadConfig({ SANDBOX: 'true' }));

    await lists.orders('co_1', undefined, 1, 20);
    await lists.orders('co_1', 'paid', 1, 20);
    await lists.orders('co_1', undefined, 1, 20, 'ref-1');
    await lists.orders('co_1', undefined, 1, 20, undefined, { from: '2026-01-01T00:00:00.000Z' });
    await lists.subscriptions('co_1', undefined, 1, 20);
    await lists.subscriptions('co_1', 'active', 1, 20);
    await lists.paymentLinks('co_1', 1, 20);

    expect(queries.length).toBeGreaterThanOrEqual(14);
    expect(queries.filter((query) => !servedByIndex(query))).toEqual([]);
  });

  it('when a filter has no index, then the check names it', () => {
    expect(servedByIndex({ collection: 'checkout_orders', filter: { merchantCompanyId: 'co_1', currency: 'USD' } })).toBe(false);
  });
});
