/**
 * What a Split knows of its collection (issue 27): the invoice the enterprise was billed at funding and how
 * far it is paid. The invoice lives on its own stream, owned by the collection module (src/collection,
 * docs/decisions.md "Issue 27: collection"); the Split read model reads these facts of it, nothing more.
 * Every invoice event names its Split and the collection status it leaves the invoice in.
 */
export const COLLECTION_STATUSES = ['OPEN', 'PARTIALLY_PAID', 'PAID', 'OVERDUE'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

/** A comma-separated list of collection statuses, as the list queries take it (`OPEN,PARTIALLY_PAID,OVERDUE`). */
export const COLLECTION_STATUS_LIST = new RegExp(`^(${COLLECTION_STATUSES.join('|')})(,(${COLLECTION_STATUSES.join('|')}))*$`);

/** The statuses such a list names, each once (the query DTO checked it matches COLLECTION_STATUS_LIST). */
export const collectionStatusesOf = (list: string | undefined): CollectionStatus[] | undefined =>
  list === undefined ? undefined : [...new Set(list.split(','))].filter((s): s is CollectionStatus => (COLLECTION_STATUSES as readonly string[]).includes(s));

export const INVOICE_STREAM_PREFIX = 'invoice-';
/** One invoice per Split: its id derives from the Split's (`inv_` + the same 26 characters), so issuing twice finds the same stream. */
export const invoiceIdOf = (splitId: string) => `inv_${splitId.slice(splitId.indexOf('_') + 1)}`;

/** The fields every invoice event carries (`dueAt` on `invoice.issued`). */
export interface InvoiceFact {
  invoiceId: string;
  splitId: string;
  collectionStatus: CollectionStatus;
  dueAt?: string;
}

/** Why a Split waits for the enterprise's approval beyond the enterprise's own review (shown to both sides). */
export type ApprovalBlockedReason = 'ENTERPRISE_INVOICE_OVERDUE';
