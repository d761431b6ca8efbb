import { deterministicId } from '../../platform/ids/ids';
import { SplitState } from './split.state';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A failed row transfer is retried after 1 min, 10 min, 1 h, then every 6 h ([money](../../../docs/money.md)). */
const RETRY_DELAYS_MS = [MINUTE_MS, 10 * MINUTE_MS, HOUR_MS];
const LATER_RETRY_MS = 6 * HOUR_MS;

/** When the transfer after failed attempt `attempt` (1-based) is due. */
export function nextTransferAttemptAt(failedAttempt: number, now: string): string {
  return new Date(Date.parse(now) + (RETRY_DELAYS_MS[failedAttempt - 1] ?? LATER_RETRY_MS)).toISOString();
}

/**
 * A row whose transfer keeps failing is retried for at most this long, counted from its first failure
 * (issue 26, docs/money.md#failures); the failure after that is final: the row is FAILED for good and
 * waits for the SME to re-point it or take it back.
 */
export const TRANSFER_RETRY_HORIZON_DAYS = 30;

export function retryHorizonPassed(firstFailedAt: string, now: string): boolean {
  return Date.parse(now) - Date.parse(firstFailedAt) >= TRANSFER_RETRY_HORIZON_DAYS * DAY_MS;
}

/** Rows without an instant payout, and the held margin, are paid at net-terms maturity: funding + the enterprise's net terms. */
export function netTermsMaturity(fundedAt: string, netTermsDays: number): string {
  return new Date(Date.parse(fundedAt) + netTermsDays * DAY_MS).toISOString();
}

/** The number of a row's next transfer attempt (1 for its first), and the payout id fixed for that attempt. */
export function nextTransferAttempt(state: SplitState, splitId: string, distributionId: string): { attempt: number; payoutId: string } {
  const attempt = state.status === 'none' ? 1 : (state.rows.get(distributionId)?.attempt ?? 0) + 1;
  return { attempt, payoutId: transferPayoutId(splitId, distributionId, attempt) };
}

/** The payout id of a row's transfer attempt `attempt` (1-based): fixed per attempt, so a repeat decides nothing. */
export const transferPayoutId = (splitId: string, distributionId: string, attempt: number) => deterministicId('po', splitId, distributionId, 'transfer', String(attempt));

export const withdrawalPayoutId = (splitId: string, distributionId: string) => deterministicId('po', splitId, distributionId, 'withdrawal');
