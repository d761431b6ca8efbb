import { DomainEvent } from '../../platform/domain/decider';

/**
 * Issue 29: a contractor's own wallet, which it adds, verifies and changes itself. A code goes to the wallet
 * email (only its keyed hash is recorded); the right code makes that email the wallet on file. Until then the
 * wallet on file (if any) stays as it was.
 */
export type ContractorWalletCodeSent = DomainEvent<'contractor_wallet.code_sent', { userId: string; walletEmail: string; codeHash: string; sentAt: string; codeExpiresAt: string }>;
export type ContractorWalletCodeRejected = DomainEvent<
  'contractor_wallet.code_rejected',
  { userId: string; failedAttempts: number; lockedUntil: string | null; rejectedAt: string }
>;
export type ContractorWalletVerified = DomainEvent<'contractor_wallet.verified', { userId: string; walletEmail: string; previousWalletEmail: string | null; verifiedAt: string }>;

export type ContractorWalletEvent = ContractorWalletCodeSent | ContractorWalletCodeRejected | ContractorWalletVerified;

export const CONTRACTOR_WALLET_EVENT_TYPES: ReadonlySet<string> = new Set<ContractorWalletEvent['type']>([
  'contractor_wallet.code_sent',
  'contractor_wallet.code_rejected',
  'contractor_wallet.verified',
]);

/** One stream per person (usr_). */
export const CONTRACTOR_WALLET_STREAM_PREFIX = 'contractor-wallet-';
export const contractorWalletStreamId = (userId: string) => `${CONTRACTOR_WALLET_STREAM_PREFIX}${userId}`;
