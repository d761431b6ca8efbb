import { Cents, formatCents, isCentsString, MAX_AMOUNT_CENTS, parseCents } from '../../platform/money/money';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { RepointRow, ResolvedContractor, ReverseRow, TakeBackRow } from './split.commands';
import { RowContractor, SplitEvent } from './split.events';
import { SplitNotFoundError } from './split.errors';
import { DistributionNotFoundError } from './split-settlement.errors';
import {
  DistributionNotFailedError,
  DistributionNotTransferredError,
  RepointContractorTakenError,
  RepointNeedsWalletEmailError,
  ReversalAmountInvalidError,
  ReversalExceedsTransferredError,
} from './row-reversals.errors';
import { ExistingSplit, RowProgress, SplitState, splitExists } from './split.state';
import { CommandMetadata } from '../../platform/domain/command';

/**
 * Issue 26, items 3 and 4 (docs/money.md#row-reversals, docs/money.md#failures):
 * - the SME takes back all or part of a transferred row (never more than its net transfer less earlier
 *   reversals), with its share of the early-payout fee when it asks;
 * - a row whose transfer failed for good is re-pointed to another contractor or taken back, so the Split
 *   can settle.
 */

export function reverseRow(data: ReverseRow['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = smeSplitOf(state, data.smeCompanyId);
  const { progress } = rowOf(split, data.distributionId);
  const earlier = split.reversals.get(data.reversalId);
  if (earlier) {
    if (earlier.requestHash === data.requestHash) return [];
    throw new IdempotencyKeyReusedError();
  }
  if (!isCentsString(data.amountCents) || data.amountCents === '0') throw new ReversalAmountInvalidError(formatCents(MAX_AMOUNT_CENTS));
  if (!progress.settled) throw new DistributionNotTransferredError();
  const amount = parseCents(data.amountCents);
  const net = parseCents(progress.netAmountCents ?? '0');
  const reversible = net - progress.reversedCents;
  if (amount > reversible) throw new ReversalExceedsTransferredError(data.amountCents, formatCents(reversible));
  const feeRefunded = data.refundFee ? feeShare(progress, net, amount) : 0n;
  return [
    {
      type: 'split.roster_entry.reversed',
      data: {
        splitId: split.splitId,
        rosterEntryId: data.distributionId,
        reversalId: data.reversalId,
        amountCents: data.amountCents,
        feeRefundedCents: formatCents(feeRefunded),
        reason: data.reason,
        idempotencyKey: data.idempotencyKey,
        requestHash: data.requestHash,
        reversedBy: meta.actor,
        reversedAt: meta.now,
      },
    },
  ];
}

/**
 * The share of the row's early-payout fee a reversal with refundFee gives back: in proportion to the part
 * of the net it reverses, rounded down, counted on the running total so the shares of a row reversed in
 * full add up to the whole fee (fee x reversed / net, after less before: nothing is lost to rounding).
 */
export function feeShare(progress: Pick<RowProgress, 'feeAmountCents' | 'feeRefundedCents' | 'reversedCents'>, net: Cents, amount: Cents): Cents {
  const fee = parseCents(progress.feeAmountCents ?? '0');
  if (fee === 0n || net === 0n) return 0n;
  const before = (fee * progress.reversedCents) / net;
  const after = (fee * (progress.reversedCents + amount)) / net;
  const share = after - before;
  const left = fee - progress.feeRefundedCents;
  return share < left ? share : left;
}

export function repointRow(data: RepointRow['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = smeSplitOf(state, data.smeCompanyId);
  const { row, progress } = rowOf(split, data.distributionId);
  if (!progress.failedForGood) throw new DistributionNotFailedError();
  const contractor = rowContractor(data.contractor);
  const key = contractorKey(contractor);
  if (split.distributions.some((other) => contractorKey(other) === key)) throw new RepointContractorTakenError();
  if (row.earlyPayoutElected && !contractor.walletEmail) throw new RepointNeedsWalletEmailError();
  return [{ type: 'split.roster_entry.repointed', data: { splitId: split.splitId, rosterEntryId: row.id, contractor, repointedBy: meta.actor, repointedAt: meta.now } }];
}

export function takeBackRow(data: TakeBackRow['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = smeSplitOf(state, data.smeCompanyId);
  const { row, progress } = rowOf(split, data.distributionId);
  if (!progress.failedForGood) throw new DistributionNotFailedError();
  const events: SplitEvent[] = [
    {
      type: 'split.roster_entry.taken_back',
      data: { splitId: split.splitId, rosterEntryId: row.id, amountCents: row.amountCents, takenBackBy: meta.actor, takenBackAt: meta.now },
    },
  ];
  if (rowsDoneBut(split, row.id)) events.push({ type: 'split.settled', data: { splitId: split.splitId, settledAt: meta.now } });
  return events;
}

/** Every row other than `distributionId` is done: transferred, or taken back by the SME. */
export function rowsDoneBut(split: ExistingSplit, distributionId: string): boolean {
  return [...split.rows].every(([id, row]) => id === distributionId || row.settled || row.takenBack);
}

export function rowContractor(contractor: ResolvedContractor): RowContractor {
  return {
    contractorPaymentProfileId: contractor.kind === 'creator' ? contractor.paymentProfileId : null,
    subVendorId: contractor.kind === 'sub_vendor' ? contractor.subVendorId : null,
    contractorDisplayName: contractor.displayName,
    creatorProfileId: contractor.creatorProfileId,
    walletEmail: contractor.walletEmail,
    contractorEmail: contractor.email,
  };
}

const contractorKey = (c: Pick<RowContractor, 'contractorPaymentProfileId' | 'subVendorId'>) =>
  c.contractorPaymentProfileId ? `cpp:${c.contractorPaymentProfileId}` : `sv:${c.subVendorId}`;

/** The SME's own Split (404 for anyone else, never leaking that it exists). */
function smeSplitOf(state: SplitState, smeCompanyId: string): ExistingSplit {
  if (!splitExists(state) || state.smeCompanyId !== smeCompanyId) throw new SplitNotFoundError();
  return state;
}

function rowOf(split: ExistingSplit, distributionId: string) {
  const row = split.distributions.find((d) => d.id === distributionId);
  const progress = split.rows.get(distributionId);
  if (!row || !progress) throw new DistributionNotFoundError();
  return { row, progress };
}
