import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ValidationFailedError } from '../../platform/domain/domain-error';

/** Digits only, no sign, no decimals, no leading zeros (the decider refuses 0 and more than 10^15). */
const MINOR_UNITS = /^(0|[1-9][0-9]{0,17})$/;

/** POST .../distributions/:distributionId/reversals (issue 26, docs/api.md#row-reversals). */
export class ReverseDistributionRequestDto {
  @ApiProperty({ example: '2500', description: "Minor units to take back: at most the row's net transfer less its earlier reversals (422 REVERSAL_EXCEEDS_TRANSFERRED)" })
  @IsDefined()
  @IsString()
  @Matches(MINOR_UNITS, { message: '$property must be a string of digits in minor units (e.g. "2500" for $25.00)' })
  amountCents!: string;

  @ApiProperty({ example: 'Paid to the wrong contractor', description: 'Why; shown to the SME in the history and to the contractor on its earnings page' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason!: string;

  @ApiPropertyOptional({
    default: false,
    description: "Also give back the row's early-payout fee in proportion to the part reversed (rounded down; a row reversed in full gets all of it back)",
  })
  @IsOptional()
  @IsBoolean()
  refundFee?: boolean;

  @ApiProperty({
    example: 'reversal-2026-0042',
    description: 'The same key and request replay the reversal (200); the same key with another request is 409 IDEMPOTENCY_KEY_REUSED',
  })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey!: string;
}

/** POST .../distributions/:distributionId/repoint: exactly one contractor field. */
export class RepointDistributionRequestDto {
  @ApiPropertyOptional({ example: 'cpp_00mwr6hxgj5js1svb6psf8f470', description: 'An active creator payment profile' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  contractorPaymentProfileId?: string;

  @ApiPropertyOptional({ example: 'sv_00mwr6hxgj5js1svb6psf8f470', description: "A vendor on the SME's own roster" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  subVendorId?: string;
}

export function assertOneContractor(body: RepointDistributionRequestDto): void {
  const given = [body.contractorPaymentProfileId, body.subVendorId].filter((value) => value !== undefined).length;
  if (given !== 1) {
    throw new ValidationFailedError('Invalid request: contractor', [
      { field: 'contractor', message: `exactly one of contractorPaymentProfileId, subVendorId is required (got ${given})` },
    ]);
  }
}

/** A reversal (issue 26). */
export class ReversalViewDto {
  @ApiProperty({ example: 'rev_00mwqd7h1k3m5o7q9s1u3w5y7a' }) id!: string;
  @ApiProperty({ example: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1' }) splitId!: string;
  @ApiProperty({ example: 'dst_00mwq1z8k4g1i3k5m7o9q1s3u5' }) distributionId!: string;
  @ApiProperty({ example: '2500', description: 'Minor units taken back from the contractor' }) amountCents!: string;
  @ApiProperty({ example: '38', description: 'The part of the early-payout fee given back with it (refundFee), minor units' }) feeRefundedCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'Paid to the wrong contractor' }) reason!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) createdAt!: string;
}
