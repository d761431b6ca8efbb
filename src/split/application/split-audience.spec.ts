import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { DistributionData, SplitEvent } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { historyEntryFor, SplitAudience, splitViewFor } from './split-audience';

const T = '2026-01-01T00:00:00.000Z';
const SME_KEY = 'api_key:key_sme_secret';
const ENTERPRISE_USER = 'user:usr_enterprise_secret';

const row = (n: number, displayName: string): DistributionData => ({
  id: `dst_${n}`,
  contractorPaymentProfileId: null,
  subVendorId: `sv_${n}`,
  contractorDisplayName: displayName,
  creatorProfileId: null,
  walletEmail: `wallet${n}@private.test`,
  contractorEmail: `contractor${n}@private.test`,
  amountCents: '1000',
  earlyPayoutElected: false,
  autoWithdrawElected: true,
  businessCoversFee: false,
});
// Row 2 was added by email with no name: its display name is the address the SME gave.
const rows = [row(1, 'Dana Named'), row(2, 'added@by-sme.test')];

type DataOf<K extends SplitEvent['type']> = Extract<SplitEvent, { type: K }>['data'];
/** One event of every type (the mapped type fails to compile when a type is added and not listed here). */
const SAMPLES: { [K in SplitEvent['type']]: { actor: string; data: DataOf<K> } } = {
  'split.created': {
    actor: SME_KEY,
    data: {
      splitId: 'spl_1',
      smeCompanyId: 'co_sme',
      smeCompanyName: 'SME',
      enterpriseCompanyId: 'co_ent',
      enterpriseCompanyName: 'Ent',
      enterpriseNetTermsDays: 30,
      apContactBusinessProfileId: 'bp_1',
      clientIdempotencyKey: 'sme-idempotency-secret',
      requestHash: 'request-hash-secret',
      legAPayoutId: 'po_a',
      currency: 'USD',
      totalAmountCents: '2500',
      marginAmountCents: '500',
      enterpriseCoversFee: false,
      enterpriseFeeAmountCents: '0',
      distributions: rows,
      createdBy: SME_KEY,
      createdAt: T,
    },
  },
  'split.roster.revised': {
    actor: SME_KEY,
    data: { splitId: 'spl_1', totalAmountCents: '2500', marginAmountCents: '500', enterpriseFeeAmountCents: '0', distributions: rows, revisedBy: SME_KEY, revisedAt: T },
  },
  'split.approval.recorded': {
    actor: ENTERPRISE_USER,
    data: { splitId: 'spl_1', revision: 1, approvedBy: ENTERPRISE_USER, approvalsRecorded: 1, approvalsRequired: 2, approvedAt: T },
  },
  'split.leg_a.approved': { actor: ENTERPRISE_USER, data: { splitId: 'spl_1', legAPayoutId: 'po_a', approvedBy: ENTERPRISE_USER, autoAccepted: false, approvedAt: T } },
  'split.leg_a.rejected': { actor: ENTERPRISE_USER, data: { splitId: 'spl_1', legAPayoutId: 'po_a', rejectedBy: ENTERPRISE_USER, reason: 'no', rejectedAt: T } },
  'split.cancelled': { actor: SME_KEY, data: { splitId: 'spl_1', cancelledBy: SME_KEY, cancelledAt: T } },
  'split.funded': { actor: 'system:split-settlement', data: { splitId: 'spl_1', legAPayoutId: 'po_a', rosterSumCents: '2000', feeBufferAmountCents: '0', fundedAt: T } },
  'split.leg_a.claimed': { actor: 'system:split-settlement', data: { splitId: 'spl_1', legAPayoutId: 'po_a', amountCents: '2000', claimedAt: T } },
  'split.margin.held': { actor: 'system:split-settlement', data: { splitId: 'spl_1', marginAmountCents: '500', marginHoldStartedAt: T } },
  'split.margin.instant_elected': { actor: SME_KEY, data: { splitId: 'spl_1', electedBy: SME_KEY, electedAt: T } },
  'split.margin.settled': {
    actor: SME_KEY,
    data: {
      splitId: 'spl_1',
      smeCompanyId: 'co_sme',
      currency: 'USD',
      marginAmountCents: '500',
      feeRecoveredCents: '77',
      creditedToBalanceCents: '423',
      via: 'settle_call',
      releasedAt: T,
    },
  },
  'split.roster_entry.transfer_started': {
    actor: SME_KEY,
    data: {
      splitId: 'spl_1',
      rosterEntryId: 'dst_1',
      payoutId: 'po_1',
      attempt: 1,
      instant: true,
      amountCents: '1000',
      feeAmountCents: '15',
      netAmountCents: '985',
      businessCoversFee: false,
      destination: 'wallet1@private.test',
      startedAt: T,
    },
  },
  'split.roster_entry.settled': { actor: 'system:split-settlement', data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_1', settledAt: T } },
  'split.roster_entry.failed': {
    actor: 'system:split-settlement',
    data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_1', attempt: 1, reason: 'rail down', nextAttemptAt: T, failedAt: T },
  },
  'split.roster_entry.withdrawal_started': {
    actor: 'system:split-settlement',
    data: { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_w', amountCents: '985', walletEmail: 'wallet1@private.test', startedAt: T },
  },
  'split.settled': { actor: 'system:split-settlement', data: { splitId: 'spl_1', settledAt: T } },
  'split.roster_entry.reversed': {
    actor: SME_KEY,
    data: {
      splitId: 'spl_1',
      rosterEntryId: 'dst_1',
      reversalId: 'rev_1',
      amountCents: '500',
      feeRefundedCents: '7',
      reason: 'reversal-reason-of-sme',
      idempotencyKey: 'reversal-key',
      requestHash: 'request-hash-secret',
      reversedBy: SME_KEY,
      reversedAt: T,
    },
  },
  'split.roster_entry.failed_for_good': {
    actor: 'system:split-settlement',
    data: { splitId: 'spl_1', rosterEntryId: 'dst_2', payoutId: 'po_2', attempt: 120, reason: 'rail down', firstFailedAt: T, failedAt: T },
  },
  'split.roster_entry.repointed': {
    actor: SME_KEY,
    data: {
      splitId: 'spl_1',
      rosterEntryId: 'dst_2',
      contractor: {
        contractorPaymentProfileId: null,
        subVendorId: 'sv_9',
        contractorDisplayName: 'repointed@by-sme.test',
        creatorProfileId: null,
        walletEmail: 'wallet9@private.test',
        contractorEmail: 'contractor9@private.test',
      },
      repointedBy: SME_KEY,
      repointedAt: T,
    },
  },
  'split.roster_entry.taken_back': { actor: SME_KEY, data: { splitId: 'spl_1', rosterEntryId: 'dst_2', amountCents: '1000', takenBackBy: SME_KEY, takenBackAt: T } },
  'split.second_person.requested': {
    actor: SME_KEY,
    data: { splitId: 'spl_1', action: 'pay_out_now', rosterEntryId: 'dst_2', amountCents: '1000', aboveAmountCents: '500', requestedBy: SME_KEY, requestedAt: T },
  },
  'split.second_person.confirmed': {
    actor: SME_KEY,
    data: { splitId: 'spl_1', action: 'pay_out_now', rosterEntryId: 'dst_2', requestedBy: SME_KEY, confirmedBy: 'user:usr_b', confirmedAt: T },
  },
};

const recorded = (type: string, actor: string, data: object, revision: number): RecordedEvent => ({
  id: `evt_${revision}`,
  type,
  // A field an event gains later stays hidden until a field list names it.
  data: { ...data, addedLater: 'unlisted-secret' },
  metadata: { correlationId: 'c', causationId: null, actor, occurredAt: T },
  streamId: 'split-spl_1',
  revision,
  position: revision + 1,
});
const history = (audience: SplitAudience) =>
  Object.entries(SAMPLES).map(([type, sample], revision) => ({ type, entry: historyEntryFor(recorded(type, sample.actor, sample.data, revision), audience) }));

/** What no audience reads in a history: contractors' addresses and wallets, the request hash, unlisted fields. */
const NOBODY = ['@private.test', 'request-hash-secret', 'unlisted-secret', 'walletEmail', 'contractorEmail', 'destination'];

describe('Split history per audience (issue 24)', () => {
  it.each<SplitAudience>(['sme', 'enterprise'])('never shows a contractor email, a wallet, the request hash or an unlisted field to the %s', (audience) => {
    const text = JSON.stringify(history(audience));
    for (const hidden of NOBODY) expect(text).not.toContain(hidden);
  });

  it("shows the SME its own key and idempotency key, and the enterprise's people as 'enterprise'", () => {
    const sme = history('sme');
    const entry = (type: string) => sme.find((e) => e.type === type)!.entry!;
    expect(entry('split.created').actor).toBe(SME_KEY);
    expect(entry('split.created').data).toMatchObject({ clientIdempotencyKey: 'sme-idempotency-secret', createdBy: SME_KEY });
    expect(entry('split.leg_a.approved').actor).toBe('enterprise');
    expect(JSON.stringify(sme)).not.toContain('usr_enterprise_secret');
    expect(entry('split.roster_entry.withdrawal_started').data).toEqual({ splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_w', amountCents: '985', startedAt: T });
    expect(entry('split.roster_entry.reversed').data).toMatchObject({ reversalId: 'rev_1', amountCents: '500', feeRefundedCents: '7', reason: 'reversal-reason-of-sme' });
    expect(entry('split.roster_entry.repointed').data).toMatchObject({ contractorDisplayName: 'repointed@by-sme.test' });
    expect(entry('split.created').data.distributions).toEqual([
      expect.objectContaining({ contractorDisplayName: 'Dana Named' }),
      expect.objectContaining({ contractorDisplayName: 'added@by-sme.test' }),
    ]);
  });

  it("shows the enterprise its own approver, never the SME's key, idempotency key, fee split or a contractor's withdrawal", () => {
    const enterprise = history('enterprise');
    const text = JSON.stringify(enterprise);
    for (const hidden of ['key_sme_secret', 'sme-idempotency-secret', 'added@by-sme.test', 'feeRecoveredCents', 'creditedToBalanceCents', '"reason":"rail down"'])
      expect(text).not.toContain(hidden);
    const entry = (type: string) => enterprise.find((e) => e.type === type)!.entry;
    expect(entry('split.created')!.actor).toBe('sme');
    expect(entry('split.leg_a.approved')).toMatchObject({ actor: ENTERPRISE_USER, data: { approvedBy: ENTERPRISE_USER } });
    expect(entry('split.roster_entry.withdrawal_started')).toBeNull();
    // Issue 26: reversals and take-backs are between the SME and its contractor; a re-pointed row shows no address.
    expect(entry('split.roster_entry.reversed')).toBeNull();
    expect(entry('split.roster_entry.taken_back')).toBeNull();
    expect(entry('split.second_person.requested')).toBeNull();
    expect(entry('split.second_person.confirmed')).toBeNull();
    expect(text).not.toContain('reversal-reason-of-sme');
    expect(entry('split.roster_entry.repointed')!.data).toMatchObject({ subVendorId: 'sv_9', contractorDisplayName: 'Contractor' });
    expect(entry('split.funded')!.actor).toBe('system:split-settlement');
    expect((entry('split.created')!.data.distributions as { contractorDisplayName: string }[]).map((r) => r.contractorDisplayName)).toEqual(['Dana Named', 'Contractor 2']);
  });

  it("shows an auto-accepted approval, appended by the SME's create call, as the SME's to the enterprise", () => {
    const data = { ...SAMPLES['split.leg_a.approved'].data, approvedBy: 'auto-accept', autoAccepted: true };
    expect(historyEntryFor(recorded('split.leg_a.approved', SME_KEY, data, 1), 'enterprise')!.actor).toBe('sme');
    expect(historyEntryFor(recorded('split.leg_a.approved', SME_KEY, data, 1), 'sme')!.actor).toBe(SME_KEY);
  });

  it('answers null for an event type it does not know (nothing raw)', () => {
    expect(historyEntryFor(recorded('split.something_new', SME_KEY, { secret: 'x' }, 0), 'sme')).toBeNull();
  });

  it('shows the enterprise a roster row named by email as "Contractor <n>", the SME as it is', () => {
    const split = { distributions: [{ contractorDisplayName: 'Dana Named' }, { contractorDisplayName: 'x@y.test' }] } as unknown as SplitView;
    expect(splitViewFor(split, 'sme')).toEqual({ ...split, approvals: [], approvalsRequired: 1, reference: null, rejectionReason: null, fundedAt: null, paydayAt: null });
    expect(splitViewFor(split, 'enterprise').distributions.map((r) => r.contractorDisplayName)).toEqual(['Dana Named', 'Contractor 2']);
  });
});
