import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class EarningsBalanceDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '9850', description: 'Minor units the person may withdraw now (the rule POST /me/withdrawals applies)' }) availableCents!: string;
  @ApiProperty({
    example: '0',
    description: 'What the person owes (issue 26): the part of a row reversal it had already withdrawn; its next credits repay it first, before anything is withdrawable',
  })
  owedCents!: string;
}

/** A row an SME took back, all or part (issue 26). */
export class EarningsReversalDto {
  @ApiProperty({ example: 'rev_00mwqd7h1k3m5o7q9s1u3w5y7a' }) id!: string;
  @ApiProperty({ example: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1' }) splitId!: string;
  @ApiProperty({ example: 'dst_00mwq1z8k4g1i3k5m7o9q1s3u5' }) rosterEntryId!: string;
  @ApiProperty({ example: '2500', description: 'Minor units taken back' }) amountCents!: string;
  @ApiProperty({ example: '2000', description: 'Of it, taken from the service balance' }) fromBalanceCents!: string;
  @ApiProperty({ example: '500', description: 'Of it, already withdrawn: owed, repaid from the next credits' }) owedCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) occurredAt!: string;
  @ApiProperty({ example: 'Acme Staffing', description: 'The company that took it back' }) smeCompanyName!: string;
}

/** One roster row transferred to the person. */
export class EarningsTransferDto {
  @ApiProperty({ example: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1:0002', description: 'The ledger posting' }) id!: string;
  @ApiProperty({ example: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1' }) splitId!: string;
  @ApiProperty({ example: 'dst_00mwq1z8k4g1i3k5m7o9q1s3u5' }) rosterEntryId!: string;
  @ApiProperty({ example: '9850' }) amountCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) occurredAt!: string;
  @ApiProperty({ example: 'Acme Staffing', description: 'The company whose Split paid it' }) smeCompanyName!: string;
}

/** A withdrawal to the wallet on file (POST /api/commerce/me/withdrawals, and in GET /me/earnings). */
export class WithdrawalDto {
  @ApiProperty({ example: 'po_00mwvg57konv0b7n1rk4xf7vef', description: "The withdrawal's payout" }) id!: string;
  @ApiProperty({ example: '6000' }) amountCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: ['requested', 'paid', 'failed'], example: 'requested', description: 'failed: the rail refused it and the amount is withdrawable again' })
  status!: 'requested' | 'paid' | 'failed';
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) requestedAt!: string;
}

export class EarningsWalletDto {
  @ApiProperty({ example: 'contractor@example.test' }) email!: string;
  @ApiProperty() active!: boolean;
  @ApiProperty({ description: 'The person entered the code emailed to it (false for a wallet an SME supplied)' }) verified!: boolean;
  @ApiPropertyOptional({
    enum: ['own', 'creator_profile', 'sme'],
    description: 'Issue 29: own (added and verified by the person), creator_profile, or sme (the wallet email an SME supplied for its roster entry)',
  })
  source?: 'own' | 'creator_profile' | 'sme';
  @ApiPropertyOptional({ example: 'Acme Staffing', description: 'With source sme: the company that supplied it' }) suppliedBy?: string;
}

/** Issue 29: a wallet the person named, waiting for the code emailed to it. */
export class PendingWalletDto {
  @ApiProperty({ example: 'new@wallet.example' }) email!: string;
  @ApiProperty({ example: '2026-11-25T01:40:13.334Z' }) codeExpiresAt!: string;
}

/** Issue 29: a row of an approved Split not transferred to the person yet. */
export class UpcomingEarningDto {
  @ApiProperty({ example: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1' }) splitId!: string;
  @ApiProperty({ example: 'dst_00mwq1z8k4g1i3k5m7o9q1s3u5' }) rosterEntryId!: string;
  @ApiProperty({ nullable: true, type: String, example: 'sv_00mwq1z8k4g1i3k5m7o9q1s3u5', description: 'The SubVendor the row pays; null for a row paid to the creator profile' })
  subVendorId!: string | null;
  @ApiProperty({ nullable: true, type: String, example: null, description: 'The creator payment profile the row pays (issue 29); null for a SubVendor row' })
  contractorPaymentProfileId!: string | null;
  @ApiProperty({ example: 'co_00mwq1z8k4g1i3k5m7o9q1s3u5' }) smeCompanyId!: string;
  @ApiProperty({ example: 'Acme Staffing', description: 'The company paying it' }) smeCompanyName!: string;
  @ApiProperty({ example: '9850', description: 'What will land as service balance (net of an instant-payout fee)' }) amountCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'PENDING', description: 'PENDING (waits for payday), PROCESSING (on its way) or FAILED (retried by itself)' }) status!: string;
  @ApiProperty() earlyPayoutElected!: boolean;
  @ApiProperty({ nullable: true, type: String, example: '2026-12-25T01:30:13.334Z', description: 'When it is paid: funding for an instant payout, else net-terms maturity' })
  paydayAt!: string | null;
}

/** GET /api/commerce/me/earnings. */
export class EarningsDto {
  @ApiProperty({ type: [EarningsBalanceDto], description: 'Per currency' }) balances!: EarningsBalanceDto[];
  @ApiProperty({ type: [EarningsTransferDto], description: 'Row transfers received, newest first (at most 100)' }) transfers!: EarningsTransferDto[];
  @ApiProperty({ type: [WithdrawalDto], description: 'Newest first' }) withdrawals!: WithdrawalDto[];
  @ApiProperty({ type: [EarningsReversalDto], description: 'Rows the SMEs took back, newest first (at most 100)' }) reversals!: EarningsReversalDto[];
  @ApiProperty({ nullable: true, type: EarningsWalletDto, description: 'The wallet withdrawals go to; a withdrawal needs it active and verified' })
  wallet!: EarningsWalletDto | null;
  @ApiProperty({ nullable: true, type: PendingWalletDto, description: 'Issue 29: a wallet waiting for its emailed code; the wallet above stays in use until it is verified' })
  pendingWallet!: PendingWalletDto | null;
}
