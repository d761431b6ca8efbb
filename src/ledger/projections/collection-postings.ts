import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { parseCents } from '../../platform/money/money';
import { ProjectionWriter } from '../../platform/projections/projection';
import { BankTransferEvent, InvoiceEvent } from '../../collection';
import { accounts, credit, debit, Entry, nonZero, SplitPosting, TransferPosting } from '../domain/posting';
import { LEDGER_POSTINGS, LEDGER_SPLITS, LedgerSplit, moveCompanyBalances } from './ledger.projection';

/** The collection events the ledger reads (issue 27, docs/money.md#collection). */
export const COLLECTION_EVENT_TYPES = ['invoice.issued', 'invoice.payment_recorded', 'bank_transfer.received', 'bank_transfer.resolved'] as const;

/**
 * An invoice's payment is one `collection` posting on its Split: the receivable is credited what the
 * payment applied, the rest (an overpayment) goes to the enterprise's balance; the money came from the
 * enterprise's balance, from the card processor (platform cash) or from the bank transfer received for it.
 */
export async function applyCollection(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as InvoiceEvent;
  if (event.type !== 'invoice.issued' && event.type !== 'invoice.payment_recorded') return;
  const split = await writer.edit<LedgerSplit>(LEDGER_SPLITS, event.data.splitId);
  if (!split) return;
  if (event.type === 'invoice.issued') {
    split.invoiceId = event.data.invoiceId;
    split.collectedCents = split.collectedCents ?? '0';
    return;
  }
  const d = event.data;
  const amount = parseCents(d.amountCents);
  const enterprise = d.enterpriseCompanyId;
  const source = d.method === 'BALANCE' ? accounts.companyBalance(enterprise) : d.method === 'BANK_TRANSFER' ? accounts.transfersUnapplied() : accounts.platformCash();
  split.sequence += 1;
  const posting: SplitPosting = {
    id: `${split.id}:${String(split.sequence).padStart(4, '0')}`,
    splitId: split.id,
    paymentId: d.paymentId,
    sequence: split.sequence,
    position: recorded.position,
    currency: d.currency,
    kind: 'collection',
    memo: `Invoice ${d.invoiceId} paid ${d.amountCents} by ${d.method.toLowerCase().replace('_', ' ')} (${d.paymentId})`,
    postedAt: recorded.metadata.occurredAt,
    eventId: recorded.id,
    entries: nonZero([
      debit(source, amount),
      credit(accounts.enterpriseReceivable(enterprise), parseCents(d.appliedCents)),
      credit(accounts.companyBalance(enterprise), parseCents(d.overpaidCents)),
    ]),
  };
  split.collectedCents = (parseCents(split.collectedCents ?? '0') + parseCents(d.appliedCents)).toString();
  writer.put<SplitPosting>(LEDGER_POSTINGS, posting);
  await moveCompanyBalances(writer, posting);
}

/** An incoming bank transfer: into platform cash, then waiting to be applied to its invoice, or parked for review. */
export async function applyBankTransfer(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as BankTransferEvent;
  if (event.type === 'bank_transfer.resolved') return applyTransferResolved(recorded, event.data, writer);
  if (event.type !== 'bank_transfer.received') return;
  const d = event.data;
  const amount = parseCents(d.amountCents);
  const matched = d.status === 'MATCHED';
  const entries: Entry[] = [debit(accounts.platformCash(), amount), credit(matched ? accounts.transfersUnapplied() : accounts.parkedTransfers(), amount)];
  writer.put<TransferPosting>(LEDGER_POSTINGS, {
    id: `${recorded.streamId}:${String(recorded.revision).padStart(6, '0')}`,
    transferId: d.transferId,
    sequence: recorded.revision,
    position: recorded.position,
    currency: d.currency,
    kind: matched ? 'transfer_received' : 'transfer_parked',
    memo: matched ? `Bank transfer ${d.transferId} (${d.reference}) for invoice ${d.invoiceId}` : `Bank transfer ${d.transferId} (${d.reference}) parked: ${d.parkedReason}`,
    postedAt: recorded.metadata.occurredAt,
    eventId: recorded.id,
    entries: nonZero(entries),
  });
}

/**
 * A parked transfer resolved (issue 27): out of parked_transfers, either waiting to be applied to the
 * invoice it was claimed for (its `collection` then debits transfers_unapplied) or back out of platform cash
 * to its sender.
 */
function applyTransferResolved(recorded: RecordedEvent, d: Extract<BankTransferEvent, { type: 'bank_transfer.resolved' }>['data'], writer: ProjectionWriter): void {
  const amount = parseCents(d.amountCents);
  const applied = d.resolution === 'APPLIED';
  writer.put<TransferPosting>(LEDGER_POSTINGS, {
    id: `${recorded.streamId}:${String(recorded.revision).padStart(6, '0')}`,
    transferId: d.transferId,
    sequence: recorded.revision,
    position: recorded.position,
    currency: d.currency,
    kind: 'transfer_resolved',
    memo: applied ? `Parked bank transfer ${d.transferId} applied to invoice ${d.invoiceId}` : `Parked bank transfer ${d.transferId} returned to its sender`,
    postedAt: recorded.metadata.occurredAt,
    eventId: recorded.id,
    entries: nonZero([debit(accounts.parkedTransfers(), amount), credit(applied ? accounts.transfersUnapplied() : accounts.platformCash(), amount)]),
  });
}
