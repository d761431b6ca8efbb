import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { netTermsMaturity } from '../domain/row-transfer-schedule';
import { DistributionData, SPLIT_EVENT_TYPES, SplitEvent } from '../domain/split.events';
import { DistributionView, SplitView } from '../projections/split-read-model.projection';

/**
 * Who reads a Split (DESIGN 15 "Views per audience"): the SME that created it, or the enterprise it bills.
 * A contractor reads its own rows through GET /api/commerce/me/earnings, never through a Split route.
 */
export type SplitAudience = 'sme' | 'enterprise';

/** The audience of a company for a Split it is a party to (the SME first, should a company bill itself). */
export const audienceOf = (split: Pick<SplitView, 'smeCompanyId'>, companyId: string): SplitAudience => (split.smeCompanyId === companyId ? 'sme' : 'enterprise');

const EMAIL = /@/;

/**
 * A row's display name as the enterprise may read it: the name the SME or the contractor gave, never an
 * email address (a roster row added by email with no name shows its email to the SME only).
 */
const displayNameFor = (audience: SplitAudience, name: string, index: number) => (audience === 'enterprise' && EMAIL.test(name) ? `Contractor ${index + 1}` : name);

/** The Split shape for one audience: the SME sees it as stored; the enterprise sees no contractor email. */
export function splitViewFor(stored: SplitView, audience: SplitAudience): SplitView {
  // Issue 30: approvals name the enterprise's people to the enterprise only; documents from before have none.
  const { approvalPolicy: _policy, ...fields } = withDates(stored, audience);
  const approvals = (stored.approvals ?? []).map((approval) => (audience === 'sme' && isPerson(approval.approvedBy) ? { ...approval, approvedBy: 'enterprise' } : approval));
  const { awaitingSecondPerson, ...shown } = fields;
  // Issue 30: what waits for a second member of the SME, to the SME only and only while something waits.
  const waiting = audience === 'sme' && awaitingSecondPerson?.length ? { awaitingSecondPerson } : {};
  const split: SplitView = { ...shown, approvals, approvalsRequired: stored.approvalsRequired ?? 1, ...waiting };
  if (audience === 'sme') return split;
  return {
    ...split,
    distributions: split.distributions.map((row, index): DistributionView => ({ ...row, contractorDisplayName: displayNameFor(audience, row.contractorDisplayName, index) })),
  };
}

/**
 * Issue 29's fields, filled for documents written before them: the SME's own reference (its clientIdempotencyKey,
 * SME only like in the history), the rejection reason, when the Split funded and its payday (net-terms maturity,
 * when rows without an instant payout are transferred).
 */
function withDates(split: SplitView, audience: SplitAudience): SplitView & { paydayAt: string | null } {
  const fundedAt = split.fundedAt ?? (split.status === 'PENDING_APPROVAL' || split.status === 'APPROVED' ? null : split.marginHoldStartedAt);
  return {
    ...split,
    reference: audience === 'sme' ? (split.reference ?? null) : null,
    rejectionReason: split.rejectionReason ?? null,
    fundedAt: fundedAt ?? null,
    paydayAt: fundedAt ? netTermsMaturity(fundedAt, split.enterpriseNetTermsDays) : null,
  };
}

/** One event of a Split's history as an audience reads it. */
export interface SplitHistoryEntry {
  revision: number;
  type: string;
  occurredAt: string;
  /** Who did it: the reader's own user or API key as recorded, a party ('sme', 'enterprise') for the other company's people. */
  actor: string;
  /** Issue 30: the reader's own member (email) or API key by name; null for a party, the service, or an actor no longer known. */
  actorName?: string | null;
  data: Record<string, unknown>;
}

type DataOf<T extends SplitEvent['type']> = Extract<SplitEvent, { type: T }>['data'];
/** null: the audience does not see this event at all. */
type Projector<T extends SplitEvent['type']> = (data: DataOf<T>, audience: SplitAudience) => Record<string, unknown> | null;

/** A roster row as recorded, field by field: never the contractor's email or wallet email. */
const rowsFor = (rows: DistributionData[], audience: SplitAudience) =>
  rows.map((row, index) => ({
    id: row.id,
    contractorPaymentProfileId: row.contractorPaymentProfileId,
    subVendorId: row.subVendorId,
    contractorDisplayName: displayNameFor(audience, row.contractorDisplayName, index),
    creatorProfileId: row.creatorProfileId,
    amountCents: row.amountCents,
    earlyPayoutElected: row.earlyPayoutElected,
    autoWithdrawElected: row.autoWithdrawElected,
    businessCoversFee: row.businessCoversFee,
  }));

/** `by` fields name a user or API key: the SME's to the SME only, the enterprise's to the enterprise only. */
const smeOnly = (audience: SplitAudience, fields: Record<string, unknown>) => (audience === 'sme' ? fields : {});
const enterpriseOnly = (audience: SplitAudience, fields: Record<string, unknown>) => (audience === 'enterprise' ? fields : {});

/**
 * Per event type, per audience, the explicit list of fields shown (docs/api.md#who-sees-what). Nothing is
 * spread from the event: a field added to an event stays hidden until it is listed here.
 */
const PROJECTORS: { [T in SplitEvent['type']]: Projector<T> } = {
  'split.created': (d, audience) => ({
    splitId: d.splitId,
    smeCompanyId: d.smeCompanyId,
    smeCompanyName: d.smeCompanyName,
    enterpriseCompanyId: d.enterpriseCompanyId,
    enterpriseCompanyName: d.enterpriseCompanyName,
    enterpriseNetTermsDays: d.enterpriseNetTermsDays,
    apContactBusinessProfileId: d.apContactBusinessProfileId,
    ...smeOnly(audience, { clientIdempotencyKey: d.clientIdempotencyKey, createdBy: d.createdBy }),
    legAPayoutId: d.legAPayoutId,
    currency: d.currency,
    totalAmountCents: d.totalAmountCents,
    marginAmountCents: d.marginAmountCents,
    enterpriseCoversFee: d.enterpriseCoversFee,
    enterpriseFeeAmountCents: d.enterpriseFeeAmountCents,
    distributions: rowsFor(d.distributions, audience),
    createdAt: d.createdAt,
  }),
  'split.roster.revised': (d, audience) => ({
    splitId: d.splitId,
    totalAmountCents: d.totalAmountCents,
    marginAmountCents: d.marginAmountCents,
    enterpriseFeeAmountCents: d.enterpriseFeeAmountCents,
    distributions: rowsFor(d.distributions, audience),
    ...smeOnly(audience, { revisedBy: d.revisedBy }),
    revisedAt: d.revisedAt,
  }),
  // Issue 30: how far a two-person approval has come; who approved is the enterprise's.
  'split.approval.recorded': (d, audience) => ({
    splitId: d.splitId,
    revision: d.revision,
    approvalsRecorded: d.approvalsRecorded,
    approvalsRequired: d.approvalsRequired,
    ...enterpriseOnly(audience, { approvedBy: d.approvedBy }),
    approvedAt: d.approvedAt,
  }),
  'split.leg_a.approved': (d, audience) => ({
    splitId: d.splitId,
    legAPayoutId: d.legAPayoutId,
    autoAccepted: d.autoAccepted,
    ...enterpriseOnly(audience, { approvedBy: d.approvedBy }),
    approvedAt: d.approvedAt,
  }),
  'split.leg_a.rejected': (d, audience) => ({
    splitId: d.splitId,
    legAPayoutId: d.legAPayoutId,
    reason: d.reason,
    ...enterpriseOnly(audience, { rejectedBy: d.rejectedBy }),
    rejectedAt: d.rejectedAt,
  }),
  'split.cancelled': (d, audience) => ({ splitId: d.splitId, ...smeOnly(audience, { cancelledBy: d.cancelledBy }), cancelledAt: d.cancelledAt }),
  // The same amounts the Split shape shows both sides (the roster sum and the fee buffer).
  'split.funded': (d) => ({
    splitId: d.splitId,
    legAPayoutId: d.legAPayoutId,
    rosterSumCents: d.rosterSumCents,
    feeBufferAmountCents: d.feeBufferAmountCents,
    fundedAt: d.fundedAt,
  }),
  'split.leg_a.claimed': (d) => ({ splitId: d.splitId, legAPayoutId: d.legAPayoutId, amountCents: d.amountCents, claimedAt: d.claimedAt }),
  'split.margin.held': (d) => ({ splitId: d.splitId, marginAmountCents: d.marginAmountCents, marginHoldStartedAt: d.marginHoldStartedAt }),
  'split.margin.instant_elected': (d, audience) => ({ splitId: d.splitId, ...smeOnly(audience, { electedBy: d.electedBy }), electedAt: d.electedAt }),
  // Where the margin went (fees recovered, the SME's balance) is the SME's.
  'split.margin.settled': (d, audience) => ({
    splitId: d.splitId,
    currency: d.currency,
    marginAmountCents: d.marginAmountCents,
    ...smeOnly(audience, { feeRecoveredCents: d.feeRecoveredCents, creditedToBalanceCents: d.creditedToBalanceCents, via: d.via }),
    releasedAt: d.releasedAt,
  }),
  // The destination is a contractor's wallet: nobody reads it here.
  'split.roster_entry.transfer_started': (d, audience) => ({
    splitId: d.splitId,
    rosterEntryId: d.rosterEntryId,
    payoutId: d.payoutId,
    attempt: d.attempt,
    amountCents: d.amountCents,
    ...smeOnly(audience, { instant: d.instant, feeAmountCents: d.feeAmountCents, netAmountCents: d.netAmountCents, businessCoversFee: d.businessCoversFee }),
    startedAt: d.startedAt,
  }),
  'split.roster_entry.settled': (d) => ({ splitId: d.splitId, rosterEntryId: d.rosterEntryId, payoutId: d.payoutId, settledAt: d.settledAt }),
  'split.roster_entry.failed': (d, audience) => ({
    splitId: d.splitId,
    rosterEntryId: d.rosterEntryId,
    payoutId: d.payoutId,
    attempt: d.attempt,
    ...smeOnly(audience, { reason: d.reason }),
    nextAttemptAt: d.nextAttemptAt,
    failedAt: d.failedAt,
  }),
  // A contractor's own withdrawal from its service balance: the SME sees that it started, never the wallet; the enterprise not at all.
  'split.roster_entry.withdrawal_started': (d, audience) =>
    audience === 'sme' ? { splitId: d.splitId, rosterEntryId: d.rosterEntryId, payoutId: d.payoutId, amountCents: d.amountCents, startedAt: d.startedAt } : null,
  'split.settled': (d) => ({ splitId: d.splitId, settledAt: d.settledAt }),
  // Issue 26. A reversal or a take-back is money between the SME and its contractor: the SME's alone.
  'split.roster_entry.reversed': (d, audience) =>
    audience === 'sme'
      ? {
          splitId: d.splitId,
          rosterEntryId: d.rosterEntryId,
          reversalId: d.reversalId,
          amountCents: d.amountCents,
          feeRefundedCents: d.feeRefundedCents,
          reason: d.reason,
          reversedBy: d.reversedBy,
          reversedAt: d.reversedAt,
        }
      : null,
  'split.roster_entry.failed_for_good': (d, audience) => ({
    splitId: d.splitId,
    rosterEntryId: d.rosterEntryId,
    payoutId: d.payoutId,
    attempt: d.attempt,
    ...smeOnly(audience, { reason: d.reason }),
    firstFailedAt: d.firstFailedAt,
    failedAt: d.failedAt,
  }),
  // The row's new contractor as the Split shape shows it to each side: never an email.
  'split.roster_entry.repointed': (d, audience) => ({
    splitId: d.splitId,
    rosterEntryId: d.rosterEntryId,
    contractorPaymentProfileId: d.contractor.contractorPaymentProfileId,
    subVendorId: d.contractor.subVendorId,
    contractorDisplayName: audience === 'enterprise' && EMAIL.test(d.contractor.contractorDisplayName) ? 'Contractor' : d.contractor.contractorDisplayName,
    creatorProfileId: d.contractor.creatorProfileId,
    ...smeOnly(audience, { repointedBy: d.repointedBy }),
    repointedAt: d.repointedAt,
  }),
  'split.roster_entry.taken_back': (d, audience) =>
    audience === 'sme' ? { splitId: d.splitId, rosterEntryId: d.rosterEntryId, amountCents: d.amountCents, takenBackBy: d.takenBackBy, takenBackAt: d.takenBackAt } : null,
  // Issue 30: the SME's own two-person rule is the SME's business.
  'split.second_person.requested': (d, audience) =>
    audience === 'sme'
      ? {
          splitId: d.splitId,
          action: d.action,
          rosterEntryId: d.rosterEntryId,
          amountCents: d.amountCents,
          aboveAmountCents: d.aboveAmountCents,
          requestedBy: d.requestedBy,
          requestedAt: d.requestedAt,
        }
      : null,
  'split.second_person.confirmed': (d, audience) =>
    audience === 'sme'
      ? { splitId: d.splitId, action: d.action, rosterEntryId: d.rosterEntryId, requestedBy: d.requestedBy, confirmedBy: d.confirmedBy, confirmedAt: d.confirmedAt }
      : null,
};

/**
 * Whose people or keys can be the actor of an event: the enterprise approves and rejects, except an
 * auto-accepted approval, which is appended by the SME's create call (its actor is the SME's key or user);
 * everything else is the SME's call or the service's own work.
 */
function actingParty(event: SplitEvent): SplitAudience {
  if (event.type === 'split.leg_a.approved') return event.data.autoAccepted ? 'sme' : 'enterprise';
  return event.type === 'split.leg_a.rejected' || event.type === 'split.approval.recorded' ? 'enterprise' : 'sme';
}

const isPerson = (actor: string) => actor.startsWith('user:') || actor.startsWith('api_key:');

/** A person or key (`user:...`, `api_key:...`) of the other company shows as that company's party. */
function actorFor(event: SplitEvent, actor: string, audience: SplitAudience): string {
  const person = actor.startsWith('user:') || actor.startsWith('api_key:');
  const party = actingParty(event);
  return person && party !== audience ? party : actor;
}

/** One recorded Split event for one audience; null when the audience does not see it (or a type it does not know). */
export function historyEntryFor(event: RecordedEvent, audience: SplitAudience): SplitHistoryEntry | null {
  if (!SPLIT_EVENT_TYPES.has(event.type)) return null;
  const type = event.type as SplitEvent['type'];
  const data = (PROJECTORS[type] as Projector<typeof type>)(event.data as DataOf<typeof type>, audience);
  if (data === null) return null;
  return { revision: event.revision, type, occurredAt: event.metadata.occurredAt, actor: actorFor({ type, data: event.data } as SplitEvent, event.metadata.actor, audience), data };
}
