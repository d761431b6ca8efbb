import { assertNever, Decider } from '../../platform/domain/decider';
import { BankTransferCurrencyMismatchError, BankTransferNotFoundError, BankTransferNotParkedError } from './collection.errors';
import { BankTransferEvent, BankTransferReceived, BankTransferStatus } from './invoice.events';
import { CommandMetadata } from '../../platform/domain/command';

export type BankTransferCommand =
  | { type: 'Create'; event: BankTransferReceived; metadata: CommandMetadata }
  | { type: 'Apply'; data: { transferId: string; invoiceId: string; invoiceCurrency: string; enterpriseCompanyId: string }; metadata: CommandMetadata }
  | { type: 'Return'; data: { transferId: string }; metadata: CommandMetadata };

export type BankTransferState =
  | { status: 'none' }
  | { status: BankTransferStatus; transferId: string; currency: string; amountCents: string; reference: string; invoiceId: string | null; enterpriseCompanyId: string | null };

/**
 * An incoming bank transfer (issue 27): received once (MATCHED or PARKED); a PARKED one is resolved
 * once, APPLIED to an invoice of its currency or RETURNED to the sender. Applying it again to the same
 * invoice appends nothing (a retry); anything else on a transfer that is not PARKED is 409.
 */
export const bankTransferDecider: Decider<BankTransferCommand, BankTransferEvent, BankTransferState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'Create':
        return state.status === 'none' ? [command.event] : [];
      case 'Apply':
        return applyTransfer(command.data, state, command.metadata);
      case 'Return':
        return returnTransfer(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'bank_transfer.received': {
        const { transferId, currency, amountCents, reference, status, invoiceId, enterpriseCompanyId } = event.data;
        return { status, transferId, currency, amountCents, reference, invoiceId, enterpriseCompanyId };
      }
      case 'bank_transfer.resolved':
        if (state.status === 'none') return state;
        return { ...state, status: event.data.resolution, invoiceId: event.data.invoiceId, enterpriseCompanyId: event.data.enterpriseCompanyId };
      default:
        return assertNever(event);
    }
  },
};

function applyTransfer(data: Extract<BankTransferCommand, { type: 'Apply' }>['data'], state: BankTransferState, meta: CommandMetadata): BankTransferEvent[] {
  if (state.status === 'none') throw new BankTransferNotFoundError();
  if (state.status === 'APPLIED' && state.invoiceId === data.invoiceId) return [];
  if (state.status !== 'PARKED') throw new BankTransferNotParkedError(data.transferId, state.status);
  if (state.currency !== data.invoiceCurrency) throw new BankTransferCurrencyMismatchError(state.currency, data.invoiceCurrency);
  return [resolved(state, 'APPLIED', data.invoiceId, data.enterpriseCompanyId, meta.now)];
}

function returnTransfer(data: Extract<BankTransferCommand, { type: 'Return' }>['data'], state: BankTransferState, meta: CommandMetadata): BankTransferEvent[] {
  if (state.status === 'none') throw new BankTransferNotFoundError();
  if (state.status === 'RETURNED') return [];
  if (state.status !== 'PARKED') throw new BankTransferNotParkedError(data.transferId, state.status);
  return [resolved(state, 'RETURNED', null, null, meta.now)];
}

function resolved(
  state: Exclude<BankTransferState, { status: 'none' }>,
  resolution: 'APPLIED' | 'RETURNED',
  invoiceId: string | null,
  enterpriseCompanyId: string | null,
  now: string,
): BankTransferEvent {
  return {
    type: 'bank_transfer.resolved',
    data: { transferId: state.transferId, resolution, currency: state.currency, amountCents: state.amountCents, invoiceId, enterpriseCompanyId, resolvedAt: now },
  };
}
