import { assertNever, Decider } from '../../platform/domain/decider';
import { basisPoints, Cents, formatCents, isCentsString, MAX_AMOUNT_CENTS, parseCents, sumCents } from '../../platform/money/money';
import { ApprovalPolicyInput, ApproveSplit, CancelSplit, CreateSplit, RejectSplit, ReviseRoster, RosterRowInput, SplitCommand } from './split.commands';
import { SplitAlreadyApprovedByYouError, SplitApproverFromSmeError } from './split-approval.errors';
import {
  SplitAmountInvalidError,
  SplitChangedSinceReviewError,
  EnterpriseInvoiceOverdueError,
  SplitDuplicateContractorError,
  SplitInstantPayoutNeedsWalletEmailError,
  SplitMarginCapExceededError,
  SplitNotFoundError,
  SplitNotPendingApprovalError,
  SplitRosterSizeError,
  SplitRosterSumTooLargeError,
  SplitRosterSumZeroError,
  SplitRowAmountNotPositiveError,
  SplitTotalBelowRosterSumError,
  rosterField,
} from './split.errors';
import { DistributionData, SplitApprovalPolicy, SplitEvent } from './split.events';
import { completeRowTransfer, evolveSettlement, failRowTransfer, fundSplit, releaseMarginAtNetTerms, settleMargin, startRowTransfer, startWithdrawal } from './split-settlement';
import { ExistingSplit, SplitState, splitExists } from './split.state';
import { repointRow, reverseRow, takeBackRow } from './row-reversals';
import { CommandMetadata } from '../../platform/domain/command';
import { confirmSecondPerson, evolveSecondPerson, requestSecondPerson } from './split-second-person';

export const MIN_ROSTER_ROWS = 1;
export const MAX_ROSTER_ROWS = 50;
/** The margin may be at most 1/MARGIN_CAP_DIVISOR (20%) of the total: margin * 5 <= total. */
const MARGIN_CAP_DIVISOR = 5n;

export const splitDecider: Decider<SplitCommand, SplitEvent, SplitState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateSplit':
        return createSplit(command.data, state, command.metadata);
      case 'ReviseRoster':
        return reviseRoster(command.data, state, command.metadata);
      case 'ApproveSplit':
        return approveSplit(command.data, state, command.metadata);
      case 'RejectSplit':
        return rejectSplit(command.data, state, command.metadata);
      case 'CancelSplit':
        return cancelSplit(command.data, state, command.metadata);
      case 'FundSplit':
        return fundSplit(command.data, state, command.metadata);
      case 'StartRowTransfer':
        return startRowTransfer(command.data, state, command.metadata);
      case 'CompleteRowTransfer':
        return completeRowTransfer(command.data, state, command.metadata);
      case 'FailRowTransfer':
        return failRowTransfer(command.data, state, command.metadata);
      case 'StartWithdrawal':
        return startWithdrawal(command.data, state, command.metadata);
      case 'SettleMargin':
        return settleMargin(command.data, state, command.metadata);
      case 'ReleaseMarginAtNetTerms':
        return releaseMarginAtNetTerms(command.data, state, command.metadata);
      case 'ReverseRow':
        return reverseRow(command.data, state, command.metadata);
      case 'RepointRow':
        return repointRow(command.data, state, command.metadata);
      case 'TakeBackRow':
        return takeBackRow(command.data, state, command.metadata);
      case 'RequestSecondPerson':
        return requestSecondPerson(command.data, state, command.metadata);
      case 'ConfirmSecondPerson':
        return confirmSecondPerson(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'split.created':
        return created(event.data);
      case 'split.roster.revised':
        return patch(state, {
          revision: splitExists(state) ? state.revision + 1 : 0,
          // What was approved is not what is billed now: every approval so far is void.
          approvals: [],
          totalAmountCents: parseCents(event.data.totalAmountCents),
          marginAmountCents: parseCents(event.data.marginAmountCents),
          marginStatus: event.data.marginAmountCents === '0' ? 'NONE' : 'PENDING',
          enterpriseFeeAmountCents: parseCents(event.data.enterpriseFeeAmountCents),
          distributions: event.data.distributions,
          ...(event.data.smeCoveredFeesDrawn ? { smeCoveredFeesDrawn: true } : {}),
        });
      case 'split.approval.recorded':
        return splitExists(state) ? patch(state, { approvals: [...state.approvals, { approvedBy: event.data.approvedBy, approvedAt: event.data.approvedAt }] }) : state;
      case 'split.leg_a.approved':
        return patch(state, { status: 'APPROVED' });
      case 'split.leg_a.rejected':
        return patch(state, { status: 'REJECTED' });
      case 'split.cancelled':
        return patch(state, { status: 'CANCELLED' });
      case 'split.funded':
      case 'split.leg_a.claimed':
      case 'split.margin.held':
      case 'split.margin.instant_elected':
      case 'split.margin.settled':
      case 'split.roster_entry.transfer_started':
      case 'split.roster_entry.settled':
      case 'split.roster_entry.failed':
      case 'split.roster_entry.withdrawal_started':
      case 'split.settled':
      case 'split.roster_entry.reversed':
      case 'split.roster_entry.failed_for_good':
      case 'split.roster_entry.repointed':
      case 'split.roster_entry.taken_back':
        return splitExists(state) ? evolveSecondPerson(evolveSettlement(state, event), event) : state;
      case 'split.second_person.requested':
      case 'split.second_person.confirmed':
        return splitExists(state) ? evolveSecondPerson(state, event) : state;
      default:
        return assertNever(event);
    }
  },
};

// ---- decide --------------------------------------------------------------------------------------

/** Creating again on an existing stream changes nothing; the handler answers with the existing Split. */
function createSplit(data: CreateSplit['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (splitExists(state)) return [];
  const roster = validateRoster(data.rows, data.totalAmountCents);
  const policy = splitApprovalPolicy(data.settings.approvalPolicy ?? null);
  const events: SplitEvent[] = [
    {
      type: 'split.created',
      data: {
        splitId: data.splitId,
        smeCompanyId: data.smeCompanyId,
        smeCompanyName: data.smeCompanyName,
        enterpriseCompanyId: data.enterprise.companyId,
        enterpriseCompanyName: data.enterprise.name,
        enterpriseNetTermsDays: data.enterprise.netTermsDays,
        apContactBusinessProfileId: data.apContactBusinessProfileId,
        clientIdempotencyKey: data.clientIdempotencyKey,
        requestHash: data.requestHash,
        legAPayoutId: data.legAPayoutId,
        currency: data.currency,
        totalAmountCents: formatCents(roster.total),
        marginAmountCents: formatCents(roster.margin),
        enterpriseCoversFee: data.settings.coverFees,
        enterpriseFeeAmountCents: formatCents(enterpriseFee(data.settings.coverFees, roster.total, data.legAFeeBps)),
        distributions: roster.distributions,
        smeCoveredFeesDrawn: true,
        ...(policy ? { approvalPolicy: policy } : {}),
        createdBy: meta.actor,
        createdAt: meta.now,
      },
    },
  ];
  // Auto-accept is suspended while the enterprise has an invoice overdue beyond the limit (issue 27).
  if (autoAccepts(data.settings, roster.total, policy) && !data.overdueInvoice) {
    events.push({
      type: 'split.leg_a.approved',
      data: { splitId: data.splitId, legAPayoutId: data.legAPayoutId, approvedBy: 'auto-accept', autoAccepted: true, approvedAt: meta.now },
    });
  }
  return events;
}

function reviseRoster(data: ReviseRoster['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = pendingSplitOf(state, (s) => s.smeCompanyId === data.smeCompanyId);
  const roster = validateRoster(data.rows, data.totalAmountCents);
  return [
    {
      type: 'split.roster.revised',
      data: {
        splitId: split.splitId,
        totalAmountCents: formatCents(roster.total),
        marginAmountCents: formatCents(roster.margin),
        enterpriseFeeAmountCents: formatCents(enterpriseFee(split.enterpriseCoversFee, roster.total, data.legAFeeBps)),
        distributions: roster.distributions,
        smeCoveredFeesDrawn: true,
        revisedBy: meta.actor,
        revisedAt: meta.now,
      },
    },
  ];
}

/**
 * One approval (issue 30): a Split that needs two stays PENDING_APPROVAL after the first
 * (split.approval.recorded) and is approved when the second lands, from another person; nobody from the
 * SME approves. A Split that needs one is approved at once, as before.
 */
function approveSplit(data: ApproveSplit['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = reviewedSplitOf(state, data);
  if (data.overdueInvoice) throw new EnterpriseInvoiceOverdueError(data.overdueInvoice.invoiceId, data.overdueInvoice.daysOverdue);
  if (data.approverIsSmeMember) throw new SplitApproverFromSmeError();
  if (split.approvals.some((approval) => approval.approvedBy === meta.actor)) throw new SplitAlreadyApprovedByYouError();
  const approved: SplitEvent = {
    type: 'split.leg_a.approved',
    data: { splitId: split.splitId, legAPayoutId: split.legAPayoutId, approvedBy: meta.actor, autoAccepted: false, approvedAt: meta.now },
  };
  const required = approvalsRequired(split);
  if (required === 1) return [approved];
  const recorded = split.approvals.length + 1;
  const approval: SplitEvent = {
    type: 'split.approval.recorded',
    data: { splitId: split.splitId, revision: split.revision, approvedBy: meta.actor, approvalsRecorded: recorded, approvalsRequired: required, approvedAt: meta.now },
  };
  return recorded >= required ? [approval, approved] : [approval];
}

/** How many different people must approve the Split as it stands now (its total may have been revised). */
export function approvalsRequired(split: Pick<ExistingSplit, 'approvalPolicy' | 'totalAmountCents'>): number {
  const policy = split.approvalPolicy;
  return policy && split.totalAmountCents > parseCents(policy.aboveAmountCents) ? policy.requiredApprovals : 1;
}

/** What a Split records of the enterprise's policy: only a two-approval rule (one approval is the default). */
function splitApprovalPolicy(input: ApprovalPolicyInput | null): SplitApprovalPolicy | null {
  return input && input.requiredApprovals === 2 ? { requiredApprovals: 2, aboveAmountCents: input.aboveAmountCents } : null;
}

/**
 * Auto-accept approves at creation only up to its cap, and never a Split that needs two people: above
 * either, the Split waits for people (issue 30).
 */
function autoAccepts(settings: CreateSplit['data']['settings'], total: Cents, policy: SplitApprovalPolicy | null): boolean {
  if (!settings.autoAccept) return false;
  const cap = settings.approvalPolicy?.autoAcceptCapCents ?? null;
  if (cap !== null && total > parseCents(cap)) return false;
  return approvalsRequired({ approvalPolicy: policy, totalAmountCents: total }) === 1;
}

function rejectSplit(data: RejectSplit['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = reviewedSplitOf(state, data);
  return [
    {
      type: 'split.leg_a.rejected',
      data: { splitId: split.splitId, legAPayoutId: split.legAPayoutId, rejectedBy: meta.actor, reason: data.reason, rejectedAt: meta.now },
    },
  ];
}

function cancelSplit(data: CancelSplit['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  const split = pendingSplitOf(state, (s) => s.smeCompanyId === data.smeCompanyId);
  return [{ type: 'split.cancelled', data: { splitId: split.splitId, cancelledBy: meta.actor, cancelledAt: meta.now } }];
}

/**
 * The enterprise decides on exactly what it reviewed (docs/api.md#approving-what-was-reviewed): the Split
 * billed to it, still pending, at the revision it read. Auto-accept decides at creation, on revision 1.
 */
function reviewedSplitOf(state: SplitState, data: { enterpriseCompanyId: string; expectedRevision: number }): ExistingSplit {
  const split = pendingSplitOf(state, (s) => s.enterpriseCompanyId === data.enterpriseCompanyId);
  if (split.revision !== data.expectedRevision) throw new SplitChangedSinceReviewError(data.expectedRevision, split.revision);
  return split;
}

/** The Split if the caller's company is the right party (else 404, never leaking existence) and it is still pending (else 409). */
function pendingSplitOf(state: SplitState, isParty: (split: ExistingSplit) => boolean): ExistingSplit {
  if (!splitExists(state) || !isParty(state)) throw new SplitNotFoundError();
  if (state.status !== 'PENDING_APPROVAL') throw new SplitNotPendingApprovalError(state.status);
  return state;
}

function enterpriseFee(coversFee: boolean, total: Cents, legAFeeBps: number): Cents {
  return coversFee ? basisPoints(total, legAFeeBps) : 0n;
}

// ---- roster rules (docs/api.md#post-apicommerceintegrationsplits-create-a-split-spec-45, docs/api.md#error-codes-of-these-calls) ----

interface ValidRoster {
  total: Cents;
  margin: Cents;
  distributions: DistributionData[];
}

/** The 400 rules in a fixed order, then the 422 wallet-email rule. Pure bigint arithmetic. */
function validateRoster(rows: RosterRowInput[], totalInput: string | null): ValidRoster {
  const { amounts, total, margin } = checkRosterAmounts(rows, totalInput);
  const repeated = repeatedContractorRows(rows);
  if (repeated.length > 0) throw new SplitDuplicateContractorError(repeated);
  // Every row kind: a creator's wallet counts only when active and verified (the resolver leaves it null otherwise).
  const walletless = indexesWhere(rows, (row) => row.earlyPayoutElected && !row.contractor.walletEmail);
  if (walletless.length > 0) throw new SplitInstantPayoutNeedsWalletEmailError(walletless);
  return { total, margin, distributions: rows.map((row, i) => distribution(row, amounts[i]!)) };
}

/**
 * The roster's 400 rules (size, amounts, sum, total, 20% margin cap). Exported so the application layer
 * can run them before resolving parties: a request that breaks them must not provision anything.
 */
export function checkRosterAmounts(rows: { amountCents: string }[], totalInput: string | null): { amounts: Cents[]; total: Cents; margin: Cents } {
  if (rows.length < MIN_ROSTER_ROWS || rows.length > MAX_ROSTER_ROWS) throw new SplitRosterSizeError(rows.length, MIN_ROSTER_ROWS, MAX_ROSTER_ROWS);
  assertAmountsWellFormed(rows, totalInput);

  const amounts = rows.map((row) => parseCents(row.amountCents));
  const sum = sumCents(amounts);
  if (sum === 0n) throw new SplitRosterSumZeroError();
  const zeroRows = indexesWhere(amounts, (amount) => amount === 0n);
  if (zeroRows.length > 0) throw new SplitRowAmountNotPositiveError(zeroRows);

  const total = totalInput === null ? sum : parseCents(totalInput);
  if (total < sum) throw new SplitTotalBelowRosterSumError(formatCents(total), formatCents(sum));
  if (total > MAX_AMOUNT_CENTS) throw new SplitRosterSumTooLargeError(formatCents(sum), formatCents(MAX_AMOUNT_CENTS));
  const margin = total - sum;
  if (margin * MARGIN_CAP_DIVISOR > total) throw new SplitMarginCapExceededError(formatCents(margin), formatCents(total));
  return { amounts, total, margin };
}

/** The DTO checks digits only; anything longer than 10^15 or with leading zeros is still refused here, never a 500. */
function assertAmountsWellFormed(rows: { amountCents: string }[], totalInput: string | null): void {
  const bad = indexesWhere(rows, (row) => !isCentsString(row.amountCents)).map((i) => rosterField(i, 'amountCents'));
  if (totalInput !== null && !isCentsString(totalInput)) bad.push('totalAmountCents');
  if (bad.length > 0) throw new SplitAmountInvalidError(bad, formatCents(MAX_AMOUNT_CENTS));
}

/**
 * Rows naming a contractor an earlier row already names (same creator payment profile, or same
 * SubVendor, whether given by id or by email): one row per contractor, the caller adds the amounts.
 */
function repeatedContractorRows(rows: RosterRowInput[]): number[] {
  const seen = new Set<string>();
  return indexesWhere(rows, ({ contractor }) => {
    const key = contractor.kind === 'creator' ? `cpp:${contractor.paymentProfileId}` : `sv:${contractor.subVendorId}`;
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}

function distribution(row: RosterRowInput, amount: Cents): DistributionData {
  const { contractor } = row;
  return {
    id: row.distributionId,
    contractorPaymentProfileId: contractor.kind === 'creator' ? contractor.paymentProfileId : null,
    subVendorId: contractor.kind === 'sub_vendor' ? contractor.subVendorId : null,
    contractorDisplayName: contractor.displayName,
    creatorProfileId: contractor.creatorProfileId,
    walletEmail: contractor.walletEmail,
    contractorEmail: contractor.email,
    amountCents: formatCents(amount),
    earlyPayoutElected: row.earlyPayoutElected,
    autoWithdrawElected: row.autoWithdrawElected,
    businessCoversFee: row.businessCoversFee,
  };
}

function indexesWhere<T>(items: T[], predicate: (item: T) => boolean): number[] {
  return items.flatMap((item, i) => (predicate(item) ? [i] : []));
}

// ---- evolve --------------------------------------------------------------------------------------

function created(data: Extract<SplitEvent, { type: 'split.created' }>['data']): ExistingSplit {
  return {
    status: 'PENDING_APPROVAL',
    splitId: data.splitId,
    revision: 1,
    legAPayoutId: data.legAPayoutId,
    requestHash: data.requestHash,
    smeCompanyId: data.smeCompanyId,
    enterpriseCompanyId: data.enterpriseCompanyId,
    enterpriseNetTermsDays: data.enterpriseNetTermsDays,
    apContactBusinessProfileId: data.apContactBusinessProfileId,
    currency: data.currency,
    enterpriseCoversFee: data.enterpriseCoversFee,
    totalAmountCents: parseCents(data.totalAmountCents),
    marginAmountCents: parseCents(data.marginAmountCents),
    enterpriseFeeAmountCents: parseCents(data.enterpriseFeeAmountCents),
    distributions: data.distributions,
    marginStatus: data.marginAmountCents === '0' ? 'NONE' : 'PENDING',
    marginInstantElected: false,
    feeDueCents: 0n,
    smeCoveredFeesDrawn: data.smeCoveredFeesDrawn === true,
    marginFeeCoverCents: 0n,
    fundedAt: null,
    approvalPolicy: data.approvalPolicy ?? null,
    approvals: [],
    rows: new Map(),
    reversals: new Map(),
  };
}

/** Events after split.created never arrive on an empty stream; if one did, it is ignored rather than inventing a Split. */
function patch(state: SplitState, changes: Partial<ExistingSplit>): SplitState {
  return splitExists(state) ? { ...state, ...changes } : state;
}
