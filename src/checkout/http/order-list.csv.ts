import { amountCsvColumns, CsvColumn } from '../../platform/http/csv';
import type { MerchantOrderView } from '../application/merchant-lists.query';

/** The CSV columns of the merchant's order list (`Accept: text/csv` on GET /api/commerce/checkout/orders): the JSON list's fields, flattened. */
export const ORDER_LIST_CSV: CsvColumn<MerchantOrderView>[] = [
  { header: 'id', value: (o) => o.id },
  { header: 'status', value: (o) => o.status },
  { header: 'createdAt', value: (o) => o.createdAt },
  { header: 'paidAt', value: (o) => o.paidAt },
  { header: 'updatedAt', value: (o) => o.updatedAt },
  { header: 'currency', value: (o) => o.currency },
  ...amountCsvColumns<MerchantOrderView>(
    'amount',
    (o) => o.amountMinorUnits,
    (o) => o.currency,
  ),
  ...amountCsvColumns<MerchantOrderView>(
    'refunded',
    (o) => o.refundedMinorUnits,
    (o) => o.currency,
  ),
  { header: 'provider', value: (o) => o.provider },
  { header: 'checkoutMode', value: (o) => o.checkoutMode },
  { header: 'externalOrderRef', value: (o) => o.externalOrderRef },
  { header: 'subscriptionId', value: (o) => o.subscriptionId },
  { header: 'renewalOf', value: (o) => o.renewal?.subscriptionId },
  { header: 'cardBrand', value: (o) => o.card?.brand },
  { header: 'cardLast4', value: (o) => o.card?.last4 },
  { header: 'lastDeclineCode', value: (o) => o.lastDecline?.declineCode },
  { header: 'payoutId', value: (o) => o.payoutId },
  { header: 'completed', value: (o) => o.completed },
  { header: 'expiresAt', value: (o) => o.expiresAt },
  { header: 'returnUrl', value: (o) => o.returnUrl },
];
