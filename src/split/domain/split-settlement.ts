import { basisPoints, Cents, formatCents, parseCents, sumCents } from '../../platform/money/money';
import { CompleteRowTransfer, FailRowTransfer, FundSplit, ReleaseMarginAtNetTerms, SettleMargin, StartRowTransfer, StartWithdrawal } from './split.commands';
import { DistributionData, SplitEvent, SplitSettlementEvent } from './split.events';
import { SplitNotFoundError } from './split.errors';
import { DistributionAlreadyPaidOutError, DistributionNotFoundError, SplitMarginNotSettleableError, SplitNotFundedError } from './split-settlement.errors';
import { ExistingSplit, RowProgress, SplitState, splitExists } from './split.state';
import { nextTransferAttempt, retryHorizonPassed } from './row-transfer-schedule';
import { rowsDoneBut } from './row-reversals';
import { CommandMetadata } from '../../platform/domain/command';

/**
 * The money side of a Split (docs/money.md, docs/decisions.md#split-money-funding-transfers-margin-ledger):
 * funding after leg A, row transfers (instant with the fee, or fee-free at net terms), failures and retries,
 * auto-withdrawal, margin hold and release, settlement.
 * Commands issued by process managers are idempotent: a repeat decides nothing.
 */

/** The instant-transfer fee and what reaches the contractor (docs/money.md#fees: fee + net = amount unless the SME covers the fee). */
export function rowFee(row: DistributionData, instant: boolean, earlyPayoutFeeBps: number): { fee: Cents; net: Cents } {
  const amount = parseCents(row.amountCents);
  const fee = instant ? basisPoints(amount, earlyPayoutFeeBps) : 0n;
  return { fee, net: row.businessCoversFee ? amount : amount - fee };
}

export function fundSplit(data: FundSplit['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state) || state.status !== 'APPROVED') return [];
  const rosterSum = sumCents(state.distributions.map((row) => parseCents(row.amountCents)));
  const feeBuffer = sumCents(state.distributions.filter((row) => row.earlyPayoutElected && row.businessCoversFee).map((row) => rowFee(row, true, data.earlyPayoutFeeBps).fee));
  // The margin pays the covered fees first (up to all of it); the rest was set aside from the SME's balance when elected.
  const fromMargin = state.smeCoveredFeesDrawn ? minCents(feeBuffer, state.marginAmountCents) : null;
  const events: SplitEvent[] = [
    {
      type: 'split.funded',
      data: {
        splitId: state.splitId,
        legAPayoutId: state.legAPayoutId,
        rosterSumCents: formatCents(rosterSum),
        feeBufferAmountCents: formatCents(feeBuffer),
        ...(fromMargin !== null ? { feeCoverFromMarginCents: formatCents(fromMargin) } : {}),
        invoiced: true,
        fundedAt: meta.now,
      },
    },
    { type: 'split.leg_a.claimed', data: { splitId: state.splitId, legAPayoutId: state.legAPayoutId, amountCents: formatCents(rosterSum), claimedAt: meta.now } },
  ];
  if (state.marginAmountCents > 0n) {
    events.push({ type: 'split.margin.held', data: { splitId: state.splitId, marginAmountCents: formatCents(state.marginAmountCents), marginHoldStartedAt: meta.now } });
    if (state.marginInstantElected) events.push(marginSettled({ ...state, marginFeeCoverCents: fromMargin ?? 0n }, 'instant_election', meta.now));
  }
  return events;
}

export function startRowTransfer(data: StartRowTransfer['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  // A timer at maturity or a replayed split.funded after every row was paid out on demand: the work is done (issue 23).
  if (!data.onDemand && splitExists(state) && state.status === 'SETTLED') return [];
  const split = fundedSplit(state);
  const { row, progress } = rowOf(split, data.distributionId);
  if (data.onDemand && (progress.attempt > 0 || progress.settled)) throw new DistributionAlreadyPaidOutError();
  if (progress.settled || progress.transferring || progress.failedForGood || progress.takenBack) return [];
  const instant = progress.attempt > 0 ? progress.instant : data.instant;
  const { fee, net } = rowFee(row, instant, data.earlyPayoutFeeBps);
  const fromMargin = onDemandFeeFromMargin(split, row, progress, fee);
  return [
    {
      type: 'split.roster_entry.transfer_started',
      data: {
        splitId: split.splitId,
        rosterEntryId: row.id,
        payoutId: nextTransferAttempt(split, split.splitId, row.id).payoutId,
        attempt: progress.attempt + 1,
        instant,
        amountCents: row.amountCents,
        feeAmountCents: formatCents(fee),
        netAmountCents: formatCents(net),
        businessCoversFee: row.businessCoversFee,
        ...(fromMargin > 0n ? { feeCoverFromMarginCents: formatCents(fromMargin) } : {}),
        destination: row.contractorEmail,
        startedAt: meta.now,
      },
    },
  ];
}

/** An on-demand instant payout is for a row that has not started its transfer yet. */
export function assertRowCanPayOutNow(state: SplitState, distributionId: string, smeCompanyId: string): void {
  if (!splitExists(state) || state.smeCompanyId !== smeCompanyId) throw new SplitNotFoundError();
  const split = fundedSplit(state);
  const { progress } = rowOf(split, distributionId);
  if (progress.attempt > 0 || progress.settled) throw new DistributionAlreadyPaidOutError();
}

export function completeRowTransfer(data: CompleteRowTransfer['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state)) return [];
  const progress = state.rows.get(data.distributionId);
  if (!progress || progress.settled || progress.payoutId !== data.payoutId) return [];
  // The fee the SME covers on this row is paid with its transfer, out of what was set aside for it.
  const covered = state.smeCoveredFeesDrawn ? parseCents(progress.coveredFeeCents ?? '0') : 0n;
  const events: SplitEvent[] = [
    {
      type: 'split.roster_entry.settled',
      data: {
        splitId: state.splitId,
        rosterEntryId: data.distributionId,
        payoutId: data.payoutId,
        ...(covered > 0n ? { coveredFeePaidCents: formatCents(covered) } : {}),
        settledAt: meta.now,
      },
    },
  ];
  if (rowsDoneBut(state, data.distributionId)) events.push({ type: 'split.settled', data: { splitId: state.splitId, settledAt: meta.now } });
  return events;
}

export function failRowTransfer(data: FailRowTransfer['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state)) return [];
  const progress = state.rows.get(data.distributionId);
  if (!progress || progress.settled || !progress.transferring || progress.payoutId !== data.payoutId) return [];
  // Past the retry horizon counted from the first failure of this contractor: no more retries (issue 26).
  if (progress.firstFailedAt !== null && retryHorizonPassed(progress.firstFailedAt, meta.now)) {
    return [
      {
        type: 'split.roster_entry.failed_for_good',
        data: {
          splitId: state.splitId,
          rosterEntryId: data.distributionId,
          payoutId: data.payoutId,
          attempt: progress.attempt,
          reason: data.reason,
          firstFailedAt: progress.firstFailedAt,
          failedAt: meta.now,
        },
      },
    ];
  }
  return [
    {
      type: 'split.roster_entry.failed',
      data: {
        splitId: state.splitId,
        rosterEntryId: data.distributionId,
        payoutId: data.payoutId,
        attempt: progress.attempt,
        reason: data.reason,
        nextAttemptAt: data.nextAttemptAt,
        failedAt: meta.now,
      },
    },
  ];
}

/**
 * Forward a settled row to the contractor's wallet (auto-withdraw); rows without a wallet stay as balance.
 * The contractor's own verified wallet as it is now (issue 29) comes before the one recorded on the row at create.
 */
export function startWithdrawal(data: StartWithdrawal['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state)) return [];
  const row = state.distributions.find((d) => d.id === data.distributionId);
  const progress = state.rows.get(data.distributionId);
  const walletEmail = data.walletEmail ?? row?.walletEmail;
  if (!row || !progress?.settled || progress.withdrawalPayoutId || !row.autoWithdrawElected || !walletEmail) return [];
  return [
    {
      type: 'split.roster_entry.withdrawal_started',
      data: { splitId: state.splitId, rosterEntryId: row.id, payoutId: data.payoutId, amountCents: netOf(state, row.id), walletEmail, startedAt: meta.now },
    },
  ];
}

export function settleMargin(data: SettleMargin['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state) || state.smeCompanyId !== data.smeCompanyId) throw new SplitNotFoundError();
  if (state.marginStatus === 'HELD') return [marginSettled(state, 'settle_call', meta.now)];
  if (state.marginStatus === 'PENDING' && !state.marginInstantElected) {
    return [{ type: 'split.margin.instant_elected', data: { splitId: state.splitId, electedBy: meta.actor, electedAt: meta.now } }];
  }
  throw new SplitMarginNotSettleableError(state.marginInstantElected && state.marginStatus === 'PENDING' ? 'PENDING with instant release already elected' : state.marginStatus);
}

export function releaseMarginAtNetTerms(data: ReleaseMarginAtNetTerms['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state) || state.marginStatus !== 'HELD') return [];
  return [marginSettled(state, 'net_terms', meta.now)];
}

export function evolveSettlement(state: ExistingSplit, event: SplitSettlementEvent): ExistingSplit {
  switch (event.type) {
    case 'split.funded':
      return {
        ...state,
        status: 'FUNDED',
        fundedAt: event.data.fundedAt,
        marginFeeCoverCents: state.marginFeeCoverCents + parseCents(event.data.feeCoverFromMarginCents ?? '0'),
        rows: new Map(state.distributions.map((d) => [d.id, freshRow()])),
      };
    case 'split.leg_a.claimed':
      return state;
    case 'split.margin.held':
      return { ...state, marginStatus: 'HELD' };
    case 'split.margin.instant_elected':
      return { ...state, marginInstantElected: true };
    case 'split.margin.settled':
      return { ...state, marginStatus: 'RELEASED', feeDueCents: state.feeDueCents - parseCents(event.data.feeRecoveredCents) };
    case 'split.roster_entry.transfer_started': {
      const status = state.status === 'FUNDED' ? 'SETTLING' : state.status;
      const marginFeeCoverCents = state.marginFeeCoverCents + parseCents(event.data.feeCoverFromMarginCents ?? '0');
      return withRow({ ...state, status, marginFeeCoverCents }, event.data.rosterEntryId, (row) => ({
        ...row,
        attempt: event.data.attempt,
        payoutId: event.data.payoutId,
        instant: event.data.instant,
        netAmountCents: event.data.netAmountCents,
        coveredFeeCents: event.data.businessCoversFee ? event.data.feeAmountCents : '0',
        feeAmountCents: event.data.feeAmountCents,
        transferring: true,
      }));
    }
    case 'split.roster_entry.settled': {
      // Paid with the transfer (coveredFeePaidCents), or, on a Split created before issue 23, due until the margin's release.
      const covered = event.data.coveredFeePaidCents !== undefined ? 0n : parseCents(state.rows.get(event.data.rosterEntryId)?.coveredFeeCents ?? '0');
      return withRow({ ...state, feeDueCents: state.feeDueCents + covered }, event.data.rosterEntryId, (row) => ({ ...row, transferring: false, settled: true }));
    }
    case 'split.roster_entry.failed':
      return withRow(state, event.data.rosterEntryId, (row) => ({ ...row, transferring: false, firstFailedAt: row.firstFailedAt ?? event.data.failedAt }));
    case 'split.roster_entry.withdrawal_started':
      return withRow(state, event.data.rosterEntryId, (row) => ({ ...row, withdrawalPayoutId: event.data.payoutId }));
    case 'split.settled':
      return { ...state, status: 'SETTLED' };
    case 'split.roster_entry.reversed': {
      const { reversalId, rosterEntryId, requestHash, amountCents, feeRefundedCents, reason, reversedAt } = event.data;
      const reversed = withRow(state, rosterEntryId, (row) => ({
        ...row,
        reversedCents: row.reversedCents + parseCents(event.data.amountCents),
        feeRefundedCents: row.feeRefundedCents + parseCents(event.data.feeRefundedCents),
      }));
      return { ...reversed, reversals: new Map(state.reversals).set(reversalId, { rosterEntryId, requestHash, amountCents, feeRefundedCents, reason, reversedAt }) };
    }
    case 'split.roster_entry.failed_for_good':
      return withRow(state, event.data.rosterEntryId, (row) => ({ ...row, transferring: false, failedForGood: true }));
    case 'split.roster_entry.repointed': {
      const { rosterEntryId, contractor } = event.data;
      const distributions = state.distributions.map((d) => (d.id === rosterEntryId ? { ...d, ...contractor } : d));
      return withRow({ ...state, distributions }, rosterEntryId, (row) => ({ ...row, failedForGood: false, firstFailedAt: null }));
    }
    case 'split.roster_entry.taken_back':
      return withRow(state, event.data.rosterEntryId, (row) => ({ ...row, failedForGood: false, takenBack: true }));
  }
}

/**
 * The margin leaves the hold: the part set aside for covered fees stays for them (it already left the
 * hold), SME-covered fees still due (Splits created before issue 23) are recovered from the rest first,
 * and what is left is credited to the SME's balance.
 */
function marginSettled(state: ExistingSplit, via: 'instant_election' | 'settle_call' | 'net_terms', now: string): SplitEvent {
  const margin = state.marginAmountCents;
  const left = margin - state.marginFeeCoverCents;
  const recovered = minCents(state.feeDueCents, left);
  return {
    type: 'split.margin.settled',
    data: {
      splitId: state.splitId,
      smeCompanyId: state.smeCompanyId,
      currency: state.currency,
      marginAmountCents: formatCents(margin),
      feeRecoveredCents: formatCents(recovered),
      creditedToBalanceCents: formatCents(left - recovered),
      via,
      releasedAt: now,
    },
  };
}

/**
 * The first transfer of a row paid out on demand whose fee the SME covers: the held margin pays what it
 * still can of that fee (the rest was set aside from the SME's balance before this was decided).
 * Early rows were covered at funding; a retry keeps the first attempt's cover.
 */
function onDemandFeeFromMargin(split: ExistingSplit, row: DistributionData, progress: RowProgress, fee: Cents): Cents {
  if (!split.smeCoveredFeesDrawn || !row.businessCoversFee || row.earlyPayoutElected || progress.attempt > 0 || split.marginStatus !== 'HELD') return 0n;
  return minCents(fee, split.marginAmountCents - split.marginFeeCoverCents);
}

const minCents = (a: Cents, b: Cents): Cents => (a < b ? a : b);

function fundedSplit(state: SplitState): ExistingSplit {
  if (!splitExists(state)) throw new SplitNotFoundError();
  if (state.status !== 'FUNDED' && state.status !== 'SETTLING') throw new SplitNotFundedError(state.status);
  return state;
}

function rowOf(split: ExistingSplit, distributionId: string): { row: DistributionData; progress: RowProgress } {
  const row = split.distributions.find((d) => d.id === distributionId);
  const progress = split.rows.get(distributionId);
  if (!row || !progress) throw new DistributionNotFoundError();
  return { row, progress };
}

function withRow(state: ExistingSplit, distributionId: string, change: (row: RowProgress) => RowProgress): ExistingSplit {
  const row = state.rows.get(distributionId);
  return row ? { ...state, rows: new Map(state.rows).set(distributionId, change(row)) } : state;
}

function freshRow(): RowProgress {
  return {
    attempt: 0,
    payoutId: null,
    instant: false,
    netAmountCents: null,
    coveredFeeCents: null,
    transferring: false,
    settled: false,
    withdrawalPayoutId: null,
    feeAmountCents: null,
    reversedCents: 0n,
    feeRefundedCents: 0n,
    firstFailedAt: null,
    failedForGood: false,
    takenBack: false,
  };
}

/** What the row's transfer delivered (the withdrawal forwards exactly that). */
function netOf(state: ExistingSplit, distributionId: string): string {
  return state.rows.get(distributionId)?.netAmountCents ?? '0';
}
