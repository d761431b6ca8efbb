import { ApiProperty } from '@nestjs/swagger';

const SPLIT_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'FUNDED', 'SETTLING', 'SETTLED', 'REJECTED', 'CANCELLED'];
const MARGIN_STATUSES = ['NONE', 'PENDING', 'HELD', 'RELEASED'];
const DISTRIBUTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'TAKEN_BACK'];
const nullableString = { nullable: true, type: String } as const;

/** One roster row of a Split (spec 2.3). */
export class DistributionViewDto {
  @ApiProperty({ example: 'dst_00mwvg57mefycf8eq3hogdzs40' }) id!: string;
  @ApiProperty({ ...nullableString, example: 'cpp_00mwr6hxgj5js1svb6psf8f470' }) contractorPaymentProfileId!: string | null;
  @ApiProperty(nullableString) subVendorId!: string | null;
  @ApiProperty({ example: 'Dana Contractor' }) contractorDisplayName!: string;
  @ApiProperty(nullableString) creatorProfileId!: string | null;
  @ApiProperty({ example: '40000', description: 'Minor units' }) amountCents!: string;
  @ApiProperty() earlyPayoutElected!: boolean;
  @ApiProperty() autoWithdrawElected!: boolean;
  @ApiProperty() businessCoversFee!: boolean;
  @ApiProperty({ enum: DISTRIBUTION_STATUSES }) status!: string;
  @ApiProperty(nullableString) legBTransferPayoutId!: string | null;
  @ApiProperty(nullableString) legBWithdrawalPayoutId!: string | null;
  @ApiProperty({ ...nullableString, description: 'Set when the transfer starts: the instant fee, or "0"' }) feeAmountCents!: string | null;
  @ApiProperty(nullableString) netAmountCents!: string | null;
  @ApiProperty(nullableString) failureReason!: string | null;
  @ApiProperty({ example: '0', description: "Issue 26: what the SME took back of the row's net transfer so far, minor units" }) reversedAmountCents!: string;
  @ApiProperty({ ...nullableString, description: 'Issue 26: when the transfer failed for good (past the 30-day retry horizon); null otherwise' })
  finalFailureAt!: string | null;
}

/** One approval of a Split (issue 30). */
/** Issue 30: a pay-out-now or margin release of the SME waiting for a second member. */
export class SecondPersonRequestDto {
  @ApiProperty({ enum: ['pay_out_now', 'settle_margin'] }) action!: string;
  @ApiProperty({ ...nullableString, example: 'dst_0mwvg57bmy15bgq4r1afqq99p', description: 'The row to pay out now; null for the margin' }) rosterEntryId!: string | null;
  @ApiProperty({ example: '120000', description: "The row's amount, or the margin" }) amountCents!: string;
  @ApiProperty({ example: '100000', description: "The SME's two-person threshold it is above" }) aboveAmountCents!: string;
  @ApiProperty({ example: 'user:usr_00mwvg57bmy15bgq4r1afqq99p', description: 'Who asked (a member or `api_key:...`); that one cannot confirm it' }) requestedBy!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) requestedAt!: string;
}

export class SplitApprovalDto {
  @ApiProperty({
    example: 'user:usr_00mwvg57bmy15bgq4r1afqq99p',
    description: "The approving member (`user:...`) as the enterprise reads it; `enterprise` as the SME reads it; `auto-accept` for the enterprise's setting",
  })
  approvedBy!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) approvedAt!: string;
}

/** A Split as the API shows it (spec 2.3). */
export class SplitViewDto {
  @ApiProperty({ example: 'spl_mjmio48of2zpddic303ehv3nfd' }) id!: string;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Version of what the enterprise is asked to approve: 1 at creation, +1 on every roster revision. Approve and reject send back the revision reviewed.',
  })
  revision!: number;
  @ApiProperty() smeCompanyId!: string;
  @ApiProperty() smeCompanyName!: string;
  @ApiProperty() enterpriseCompanyId!: string;
  @ApiProperty() enterpriseCompanyName!: string;
  @ApiProperty({ example: 30 }) enterpriseNetTermsDays!: number;
  @ApiProperty() apContactBusinessProfileId!: string;
  @ApiProperty({ example: 'po_lvnl11vysy636v8u2tzgwig8ag' }) legAPayoutId!: string;
  @ApiProperty({ example: '45000' }) totalAmountCents!: string;
  @ApiProperty({ example: '5000' }) marginAmountCents!: string;
  @ApiProperty({ enum: MARGIN_STATUSES }) marginStatus!: string;
  @ApiProperty(nullableString) marginHoldStartedAt!: string | null;
  @ApiProperty(nullableString) marginReleasedAt!: string | null;
  @ApiProperty({ example: '0' }) feeBufferAmountCents!: string;
  @ApiProperty() enterpriseCoversFee!: boolean;
  @ApiProperty({ example: '0' }) enterpriseFeeAmountCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: SPLIT_STATUSES }) status!: string;
  @ApiProperty({ type: [DistributionViewDto] }) distributions!: DistributionViewDto[];
  @ApiProperty({ type: [SplitApprovalDto], description: 'Approvals of the current revision, oldest first (a roster revision clears them)' }) approvals!: SplitApprovalDto[];
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: "How many different people must approve: 2 above the enterprise's approval policy amount, else 1; PENDING_APPROVAL until that many have",
  })
  approvalsRequired!: number;
  @ApiProperty({
    type: [SecondPersonRequestDto],
    required: false,
    description: "Issue 30, SME only and only while something waits: pay-outs-now and margin releases above the SME's two-person threshold waiting for a second member to confirm",
  })
  awaitingSecondPerson?: SecondPersonRequestDto[];
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) updatedAt!: string;
  @ApiProperty({ ...nullableString, example: 'inv_mjmio48of2zpddic303ehv3nfd', description: 'The invoice billed to the enterprise at funding (issue 27); null before funding' })
  invoiceId!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['OPEN', 'PARTIALLY_PAID', 'PAID', 'OVERDUE'], description: 'How far the invoice is paid; null without one' })
  collectionStatus!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['ENTERPRISE_INVOICE_OVERDUE'],
    description: 'Why a PENDING_APPROVAL Split waits: the enterprise has an invoice overdue beyond the limit and cannot approve (its auto-accept is suspended) until it pays',
  })
  approvalBlockedReason!: string | null;
  @ApiProperty({
    ...nullableString,
    example: 'invoice-2026-0042',
    description:
      "The SME's reference (its clientIdempotencyKey); shown to the SME only (null for the enterprise, and on Splits projected before issue 29 until `projections:rebuild splits`)",
  })
  reference!: string | null;
  @ApiProperty({ ...nullableString, example: 'The PO number is missing.', description: "The enterprise's reason, once REJECTED (null otherwise or when none was given)" })
  rejectionReason!: string | null;
  @ApiProperty({ ...nullableString, example: '2026-11-25T01:30:14.000Z', description: 'When the Split funded (null before)' }) fundedAt!: string | null;
  @ApiProperty({
    ...nullableString,
    example: '2026-12-25T01:30:14.000Z',
    description: 'Payday: when rows without an instant payout are transferred (fundedAt + enterpriseNetTermsDays); null until the Split funds',
  })
  paydayAt!: string | null;
}

/** One event of a Split's stream (GET .../splits/:id/history). */
export class SplitHistoryEntryDto {
  @ApiProperty({ example: 0 }) revision!: number;
  @ApiProperty({ example: 'split.created' }) type!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) occurredAt!: string;
  @ApiProperty({
    example: 'api_key:key_00mwvg57konv0b7n1rk4xf7vef',
    description: "The caller's own user or API key as recorded; the other company's people show as 'sme' or 'enterprise'",
  })
  actor!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'ann@acme.example',
    description:
      'Issue 30: who acted, by name: the caller\'s own member (email) or API key (`API key "name"`); null for the other company, the service, or someone no longer a member',
  })
  actorName!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "The event's fields the caller's side may read, listed per event type (docs/api.md#who-sees-what); never the recorded event data",
  })
  data!: Record<string, unknown>;
}
