import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { Page } from '../../platform/http/envelope';
import { DOCUMENT_READER, DocumentReader, Filter, Range } from '../../platform/read-store/document-store.port';
import { findPage } from '../../platform/read-store/find-page';
import { InvoiceNotFoundError } from '../domain/collection.errors';
import { BankTransferStatus, CollectionStatus } from '../domain/invoice.events';
import { BANK_TRANSFERS, BankTransferDoc, InvoiceDoc, INVOICES } from '../projections/invoices-read-model.projection';

/** Where a bank transfer goes (the sandbox's collection account); the invoice's paymentReference tells it apart. */
export const COLLECTION_ACCOUNT = { accountName: 'Paysplit Collections (sandbox)', iban: 'GB33PSPL00000012345678', bic: 'PSPLGB2L' } as const;

/** A page of the bill list holds up to 500 (the whole list before it was paged), so a client that reads `data` alone sees what it saw then. */
export const INVOICE_PAGE_SIZE = 500;

const SOONEST_DUE = [
  { field: 'dueAt', direction: 'asc' },
  { field: 'id', direction: 'asc' },
] as const;

/** An invoice as the API shows it (docs/api.md#invoices): the stored document and how to pay it. */
export interface InvoiceView extends Omit<InvoiceDoc, 'updatedAt'> {
  /** The dashboard's page for the bill: pay by balance, card, or read the bank details. */
  payUrl: string;
  bankTransfer: { accountName: string; iban: string; bic: string; reference: string };
}

/** Reads invoices for one company: the enterprise billed, or the SME whose Split it is; anyone else gets 404. */
@Injectable()
export class InvoiceQueries {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The enterprise's invoices, soonest due first, a page at a time with the total; `statuses` narrows to
   * those collection statuses (decisions.md, "The enterprise's bill list is paged").
   */
  async list(enterpriseCompanyId: string, statuses: readonly CollectionStatus[] | undefined, page = 1, limit = INVOICE_PAGE_SIZE): Promise<Page<InvoiceView>> {
    const filter: Filter = { enterpriseCompanyId };
    const range: Range = statuses === undefined ? {} : { status: { oneOf: statuses } };
    const [docs, total] = await findPage<InvoiceDoc>(this.store, INVOICES, { filter, range, sort: [...SOONEST_DUE] }, page, limit);
    return Page.of(
      docs.map((doc) => this.view(doc)),
      page,
      limit,
      total,
    );
  }

  async get(invoiceId: string, companyId: string): Promise<InvoiceView> {
    const doc = await this.store.get<InvoiceDoc>(INVOICES, invoiceId);
    if (!doc || (doc.enterpriseCompanyId !== companyId && doc.smeCompanyId !== companyId)) throw new InvoiceNotFoundError();
    return this.view(doc);
  }

  /** The invoice a bank transfer's reference names (case and spaces ignored), or null. */
  async byReference(reference: string): Promise<InvoiceDoc | null> {
    const normalized = reference.replace(/\s+/g, '').toUpperCase();
    const [doc] = await this.store.find<InvoiceDoc>(INVOICES, { filter: { paymentReference: normalized }, limit: 1 });
    return doc ?? null;
  }

  /** Incoming bank transfers, newest first; `status` PARKED lists those waiting for review. */
  async bankTransfers(status?: BankTransferStatus): Promise<BankTransferDoc[]> {
    const found = await this.store.find<BankTransferDoc>(BANK_TRANSFERS, { filter: status ? { status } : {}, sort: [{ field: 'receivedAt', direction: 'desc' }], limit: 200 });
    return found.map(transferView);
  }

  /** One incoming bank transfer (null when unknown). */
  async bankTransfer(transferId: string): Promise<BankTransferDoc | null> {
    const doc = await this.store.get<BankTransferDoc>(BANK_TRANSFERS, transferId);
    return doc ? transferView(doc) : null;
  }

  payUrlOf(invoiceId: string): string {
    return `${this.config.publicBaseUrl}/dashboard/bills?invoice=${invoiceId}`;
  }

  private view(doc: InvoiceDoc): InvoiceView {
    const { updatedAt, ...shown } = doc;
    return { ...shown, payUrl: this.payUrlOf(doc.id), bankTransfer: { ...COLLECTION_ACCOUNT, reference: doc.paymentReference } };
  }
}

/** A transfer as the API shows it: `resolvedAt` null on documents written before parked transfers were resolved. */
const transferView = (doc: BankTransferDoc): BankTransferDoc => ({ ...doc, resolvedAt: doc.resolvedAt ?? null });
