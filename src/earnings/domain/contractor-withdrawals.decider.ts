import { assertNever, Decider } from '../../platform/domain/decider';
import { WithdrawalInsufficientBalanceError, WithdrawalWalletNotReadyError } from './earnings.errors';
import { Allocation, ContractorWithdrawalEvent } from './contractor-withdrawals.events';
import { CommandMetadata } from '../../platform/domain/command';

export interface Wallet {
  email: string;
  active: boolean;
  verified: boolean;
  /**
   * Issue 29, where it comes from: `own` (the person added it and entered the code emailed there), `creator_profile`,
   * or `sme` (the wallet email an SME supplied for the person's roster entry, `suppliedBy` naming it: not verified,
   * but what the SME's rows already pay to, so withdrawals may use it too). Absent: a creator profile's (before issue 29).
   */
  source?: 'own' | 'creator_profile' | 'sme';
  suppliedBy?: string;
}

/** A withdrawal may go to an active wallet that the person verified, or that an SME supplied for it. */
export const walletReady = (wallet: Wallet | null): wallet is Wallet => Boolean(wallet && wallet.active && (wallet.verified || wallet.source === 'sme'));

export type ContractorWithdrawalsCommand =
  | {
      type: 'RequestWithdrawal';
      data: {
        userId: string;
        payoutId: string;
        currency: string;
        amountCents: string;
        wallet: Wallet | null;
        /**
         * Per contractor account of this person, in this currency: the row transfers credited to it that
         * are the person's to withdraw (auto-withdrawn rows excluded), as the ledger shows them now. A read
         * model that lags only shows less, so the rule never lets more out than came in.
         */
        earned: Record<string, string>;
      };
      metadata: CommandMetadata;
    }
  | { type: 'SettleWithdrawal'; data: { payoutId: string; outcome: { paid: true } | { paid: false; reason: string } }; metadata: CommandMetadata };

export interface WithdrawalRecord {
  payoutId: string;
  currency: string;
  amountCents: string;
  allocations: Allocation[];
  status: 'requested' | 'paid' | 'failed';
  requestedAt: string;
}

export interface ContractorWithdrawalsState {
  userId: string | null;
  withdrawals: Record<string, WithdrawalRecord>;
}

/** What each account has left to withdraw: earned minus every withdrawal not failed (requested or paid). */
export function availableByAccount(state: ContractorWithdrawalsState, currency: string, earned: Record<string, string>): Record<string, bigint> {
  const available: Record<string, bigint> = Object.fromEntries(Object.entries(earned).map(([account, cents]) => [account, BigInt(cents)]));
  for (const withdrawal of Object.values(state.withdrawals)) {
    if (withdrawal.currency !== currency || withdrawal.status === 'failed') continue;
    for (const a of withdrawal.allocations) available[a.contractor] = (available[a.contractor] ?? 0n) - BigInt(a.amountCents);
  }
  return available;
}

/** Takes `amount` from the accounts in name order, each up to what it has; null when they do not cover it. */
export function allocate(available: Record<string, bigint>, amount: bigint): Allocation[] | null {
  const allocations: Allocation[] = [];
  let left = amount;
  for (const account of Object.keys(available).sort()) {
    if (left === 0n) break;
    const take = available[account]! < left ? available[account]! : left;
    if (take <= 0n) continue;
    allocations.push({ contractor: account, amountCents: take.toString() });
    left -= take;
  }
  return left === 0n ? allocations : null;
}

const total = (available: Record<string, bigint>) => Object.values(available).reduce((sum, cents) => sum + (cents > 0n ? cents : 0n), 0n);

/**
 * A person's withdrawals of service balance to its wallet (docs/earnings.md). A withdrawal needs an
 * active, verified wallet and at most what the person's contractor accounts have left; it names which
 * accounts pay, so the ledger can post it without a lookup. The rail's answer settles it once: a failed
 * one gives its amount back.
 */
export const contractorWithdrawalsDecider: Decider<ContractorWithdrawalsCommand, ContractorWithdrawalEvent, ContractorWithdrawalsState> = {
  initialState: () => ({ userId: null, withdrawals: {} }),
  decide(command, state) {
    switch (command.type) {
      case 'RequestWithdrawal': {
        const d = command.data;
        if (state.withdrawals[d.payoutId]) return [];
        if (!walletReady(d.wallet)) throw new WithdrawalWalletNotReadyError();
        const available = availableByAccount(state, d.currency, d.earned);
        const allocations = allocate(available, BigInt(d.amountCents));
        if (!allocations) throw new WithdrawalInsufficientBalanceError(d.currency, total(available).toString(), d.amountCents);
        return [
          {
            type: 'contractor.withdrawal.requested',
            data: {
              userId: d.userId,
              payoutId: d.payoutId,
              currency: d.currency,
              amountCents: d.amountCents,
              walletEmail: d.wallet.email,
              allocations,
              requestedAt: command.metadata.now,
            },
          },
        ];
      }
      case 'SettleWithdrawal': {
        const d = command.data;
        const withdrawal = state.withdrawals[d.payoutId];
        if (!withdrawal || withdrawal.status !== 'requested' || state.userId === null) return [];
        return d.outcome.paid
          ? [{ type: 'contractor.withdrawal.paid', data: { userId: state.userId, payoutId: d.payoutId, paidAt: command.metadata.now } }]
          : [{ type: 'contractor.withdrawal.failed', data: { userId: state.userId, payoutId: d.payoutId, reason: d.outcome.reason, failedAt: command.metadata.now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'contractor.withdrawal.requested': {
        const { payoutId, currency, amountCents, allocations, requestedAt, userId } = event.data;
        return { userId, withdrawals: { ...state.withdrawals, [payoutId]: { payoutId, currency, amountCents, allocations, status: 'requested', requestedAt } } };
      }
      case 'contractor.withdrawal.paid':
      case 'contractor.withdrawal.failed': {
        const withdrawal = state.withdrawals[event.data.payoutId];
        if (!withdrawal) return state;
        const status = event.type === 'contractor.withdrawal.paid' ? 'paid' : 'failed';
        return { ...state, withdrawals: { ...state.withdrawals, [event.data.payoutId]: { ...withdrawal, status } } };
      }
      default:
        return assertNever(event);
    }
  },
};
