import { amountCsvColumns, CsvColumn } from '../../platform/http/csv';
import type { SplitView } from '../projections/split-read-model.projection';

/**
 * The CSV columns of a Split list (`Accept: text/csv` on the SME's and the enterprise's lists): the
 * audience's view the JSON list answers, one row per Split; its rows (distributions) as a count.
 */
export const SPLIT_LIST_CSV: CsvColumn<SplitView>[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'reference', value: (s) => s.reference },
  { header: 'status', value: (s) => s.status },
  { header: 'createdAt', value: (s) => s.createdAt },
  { header: 'updatedAt', value: (s) => s.updatedAt },
  { header: 'fundedAt', value: (s) => s.fundedAt },
  { header: 'smeCompanyId', value: (s) => s.smeCompanyId },
  { header: 'smeCompanyName', value: (s) => s.smeCompanyName },
  { header: 'enterpriseCompanyId', value: (s) => s.enterpriseCompanyId },
  { header: 'enterpriseCompanyName', value: (s) => s.enterpriseCompanyName },
  { header: 'currency', value: (s) => s.currency },
  ...amountCsvColumns<SplitView>(
    'totalAmount',
    (s) => s.totalAmountCents,
    (s) => s.currency,
  ),
  ...amountCsvColumns<SplitView>(
    'marginAmount',
    (s) => s.marginAmountCents,
    (s) => s.currency,
  ),
  { header: 'marginStatus', value: (s) => s.marginStatus },
  ...amountCsvColumns<SplitView>(
    'enterpriseFeeAmount',
    (s) => s.enterpriseFeeAmountCents,
    (s) => s.currency,
  ),
  { header: 'enterpriseCoversFee', value: (s) => s.enterpriseCoversFee },
  { header: 'rows', value: (s) => s.distributions.length },
  { header: 'legAPayoutId', value: (s) => s.legAPayoutId },
  { header: 'invoiceId', value: (s) => s.invoiceId },
  { header: 'collectionStatus', value: (s) => s.collectionStatus },
];
