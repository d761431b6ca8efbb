import { Cents } from '../../platform/money/money';
import { DistributionData } from './split.events';

/** Spec 2.3. FUNDED, SETTLING and SETTLED are reached by funding/settlement events added later. */
export type SplitStatus = 'PENDING_APPROVAL' | 'APPROVED' | 'FUNDED' | 'SETTLING' | 'SETTLED' | 'REJECTED' | 'CANCELLED';

/** What the decider needs to know about a Split that exists. */
export interface ExistingSplit {
  status: SplitStatus;
  splitId: string;
  legAPayoutId: string;
  smeCompanyId: string;
  enterpriseCompanyId: string;
  enterpriseNetTermsDays: number;
  currency: string;
  enterpriseCoversFee: boolean;
  totalAmountCents: Cents;
  marginAmountCents: Cents;
  enterpriseFeeAmountCents: Cents;
  distributions: DistributionData[];
  marginStatus: 'NONE' | 'PENDING' | 'HELD' | 'RELEASED';
  marginInstantElected: boolean;
  fundedAt: string | null;
  /** Transfer progress per distribution id. */
  rows: Record<string, RowProgress>;
}

export interface RowProgress {
  attempt: number;
  payoutId: string | null;
  instant: boolean;
  netAmountCents: string | null;
  transferring: boolean;
  settled: boolean;
  withdrawalPayoutId: string | null;
}

export type SplitState = { status: 'none' } | ExistingSplit;

export const splitExists = (state: SplitState): state is ExistingSplit => state.status !== 'none';
