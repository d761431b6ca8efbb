import { amountCsvColumns, CsvColumn } from '../../platform/http/csv';
import type { SessionView } from '../application/payout-embed.queries';

/**
 * The CSV columns of the Payout Embed session list (`Accept: text/csv`). Not the embedUrl: it carries the
 * page's token, which a spreadsheet passed around must not hold.
 */
export const SESSION_LIST_CSV: CsvColumn<SessionView>[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'status', value: (s) => s.status },
  { header: 'createdAt', value: (s) => s.createdAt },
  { header: 'updatedAt', value: (s) => s.updatedAt },
  { header: 'expiresAt', value: (s) => s.expiresAt },
  { header: 'currency', value: (s) => s.currency },
  ...amountCsvColumns<SessionView>(
    'amount',
    (s) => s.amountCents,
    (s) => s.currency,
  ),
  { header: 'recipientEmail', value: (s) => s.recipientEmail },
  { header: 'recipientName', value: (s) => s.recipientName },
  { header: 'description', value: (s) => s.description },
  { header: 'payoutId', value: (s) => s.payoutId },
  { header: 'failureReason', value: (s) => s.failureReason },
];
