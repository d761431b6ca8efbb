import { recordingReader, SentQuery, servedByIndex } from '../../../test/support/index-coverage';
import { loadConfig } from '../../platform/config/app-config';
import { CheckoutReadModelProjection } from '../projections/checkout-read-model.projection';
import { MerchantListsQuery } from './merchant-lists.query';

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
