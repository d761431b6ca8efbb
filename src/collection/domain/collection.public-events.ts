import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import { InvoiceEvent } from './invoice.events';

/**
 * The invoice events other parties see as webhooks (docs/webhooks.md#9-event-catalogue). Both sides of the
 * Split receive them: the SME (its Split's bill was paid, or is late) and the enterprise (its own bill).
 */
export type SplitInvoicePaidPayload = { invoiceId: string; splitId: string; amountCents: string; currency: string };
export type SplitInvoiceOverduePayload = { invoiceId: string; splitId: string; outstandingCents: string; currency: string; dueAt: string };

export type CollectionPublicEvent =
  { type: 'split.invoice.paid'; companyIds: string[]; data: SplitInvoicePaidPayload } | { type: 'split.invoice.overdue'; companyIds: string[]; data: SplitInvoiceOverduePayload };

/** The public event a recorded invoice event becomes, or null. */
export function collectionPublicEvent(recorded: Pick<RecordedEvent, 'type' | 'data'>): CollectionPublicEvent | null {
  if (recorded.type !== 'invoice.paid' && recorded.type !== 'invoice.overdue') return null;
  const event = { type: recorded.type, data: recorded.data } as InvoiceEvent;
  switch (event.type) {
    case 'invoice.paid': {
      const { invoiceId, splitId, amountCents, currency, smeCompanyId, enterpriseCompanyId } = event.data;
      return { type: 'split.invoice.paid', companyIds: [smeCompanyId, enterpriseCompanyId], data: { invoiceId, splitId, amountCents, currency } };
    }
    case 'invoice.overdue': {
      const { invoiceId, splitId, outstandingCents, currency, dueAt, smeCompanyId, enterpriseCompanyId } = event.data;
      return { type: 'split.invoice.overdue', companyIds: [smeCompanyId, enterpriseCompanyId], data: { invoiceId, splitId, outstandingCents, currency, dueAt } };
    }
    default:
      return null;
  }
}
