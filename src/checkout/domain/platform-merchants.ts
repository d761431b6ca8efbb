/**
 * Issue 27: the platform's own collections account, the merchant of the Checkout orders that pay invoices
 * by card or wallet (the collection module names it COLLECTIONS_MERCHANT). Its PAID orders start no
 * merchant payout: the money is the platform's (the invoice's `collection` posting books it as
 * platform_cash) and there is no merchant to pay it to, so such an order stays PAID.
 */
export const PLATFORM_COLLECTIONS_MERCHANT = 'co_paysplit_collections';

/** Whether a PAID order of this merchant is paid out to it (every merchant but the platform's collections account). */
export const paysOutToMerchant = (merchantCompanyId: string): boolean => merchantCompanyId !== PLATFORM_COLLECTIONS_MERCHANT;
