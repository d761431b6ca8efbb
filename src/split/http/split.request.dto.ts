import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ValidationFailedError } from '../../platform/domain/domain-error';
import { PageQueryDto } from '../../platform/http/pagination';
import { SPLIT_STATUSES, type SplitStatus } from '../domain/split.state';
import { COLLECTION_STATUS_LIST, COLLECTION_STATUSES } from '../domain/split-collection';

/** Digits only, no sign, no decimals, no leading zeros; the size cap (10^15) is a Split rule. */
export const MINOR_UNITS = /^(0|[1-9][0-9]{0,17})$/;
const MINOR_UNITS_MESSAGE = '$property must be a string of digits in minor units (e.g. "12500" for $125.00)';

export class RosterRowDto {
  @ApiProperty({ example: '40000', description: 'Row amount in minor units, as a string of digits' })
  @IsDefined()
  @IsString()
  @Matches(MINOR_UNITS, { message: MINOR_UNITS_MESSAGE })
  amountCents!: string;

  @ApiPropertyOptional({ default: false, description: 'Instant advance once the Split funds (fee deducted)' })
  @IsOptional()
  @IsBoolean()
  earlyPayoutElected?: boolean;

  @ApiPropertyOptional({ default: false, description: "Forward the row's share to the contractor's active, verified wallet" })
  @IsOptional()
  @IsBoolean()
  autoWithdrawElected?: boolean;

  @ApiPropertyOptional({ default: false, description: 'The SME pays the early-payout fee on top' })
  @IsOptional()
  @IsBoolean()
  businessCoversFee?: boolean;

  @ApiPropertyOptional({ example: 'cpp_00mwr6hxgj5js1svb6psf8f470', description: 'An active creator payment profile' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  contractorPaymentProfileId?: string;

  @ApiPropertyOptional({ example: 'sv_4k2m...', description: "A vendor on the SME's own roster" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  subVendorId?: string;

  @ApiPropertyOptional({ example: 'dana@contractor.test', description: 'Onboard a contractor by email (spec 4.5)' })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ example: 'Dana Contractor', description: 'Used with email' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  fullName?: string;
}

export class ReviseRosterRequestDto {
  @ApiProperty({ type: [RosterRowDto], minItems: 1, maxItems: 50 })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => RosterRowDto)
  roster!: RosterRowDto[];

  @ApiPropertyOptional({ example: '110000', description: 'Billed to the enterprise; omitted = exactly the roster sum. Margin at most 20% of it.' })
  @IsOptional()
  @IsString()
  @Matches(MINOR_UNITS, { message: MINOR_UNITS_MESSAGE })
  totalAmountCents?: string;
}

export class CreateSplitRequestDto extends ReviseRosterRequestDto {
  @ApiProperty({ example: 'co_00mwr6hxgj5js1svb6psf8f470', description: 'The company billed' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  enterpriseCompanyId!: string;

  @ApiProperty({ example: 'bp_00mwr6hxgj5js1svb6psf8f470', description: 'A business profile (AP contact) of the enterprise' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  apContactBusinessProfileId!: string;

  @ApiProperty({ example: 'invoice-2026-0042', description: 'Repeating it for the same enterprise and AP contact returns the existing Split' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  clientIdempotencyKey!: string;
}

/**
 * What the enterprise reviewed: the `revision` of the Split it read (docs/api.md#approving-what-was-reviewed).
 * Required: an approval that names no revision could approve a roster the enterprise never saw.
 */
export class ReviewedSplitRequestDto {
  @ApiProperty({
    type: 'integer',
    example: 1,
    minimum: 1,
    description: "The Split's `revision` as the enterprise read it; another revision answers 409 SPLIT_CHANGED_SINCE_REVIEW and changes nothing",
  })
  @IsDefined()
  @IsInt()
  @Min(1)
  revision!: number;
}

export class ApproveSplitRequestDto extends ReviewedSplitRequestDto {}

export class RejectSplitRequestDto extends ReviewedSplitRequestDto {
  @ApiPropertyOptional({ example: 'Hours do not match the timesheet' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

const CONTRACTOR_FIELDS = ['contractorPaymentProfileId', 'subVendorId', 'email'] as const;

/**
 * Each row names its contractor exactly one way (docs/api.md#post-apicommerceintegrationsplits-create-a-split-spec-45);
 * class-validator has no cross-field rule for it.
 */
export function assertOneContractorPerRow(roster: RosterRowDto[]): void {
  const details = roster.flatMap((row, index) => {
    const given = CONTRACTOR_FIELDS.filter((field) => row[field] !== undefined);
    if (given.length === 1) return [];
    return [{ field: `roster.${index}`, message: `exactly one of ${CONTRACTOR_FIELDS.join(', ')} is required (got ${given.length})` }];
  });
  const fullNameWithoutEmail = roster.flatMap((row, index) =>
    row.fullName !== undefined && row.email === undefined ? [{ field: `roster.${index}.fullName`, message: 'fullName is only used with email' }] : [],
  );
  const all = [...details, ...fullNameWithoutEmail];
  if (all.length > 0) throw new ValidationFailedError(`Invalid request: ${all.map((d) => d.field).join(', ')}`, all);
}

export class AsOfQueryDto {
  @ApiPropertyOptional({ example: '2026-11-22T10:00:00.000Z', description: 'Return the Split as it stood at this moment' })
  @IsOptional()
  @IsISO8601({ strict: true })
  asOf?: string;
}

/** `?status=&collectionStatus=&page=&limit=` of the session lists (the SME's outgoing, the enterprise's incoming). */
export class SplitListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SPLIT_STATUSES, description: 'Only Splits in this status' })
  @IsOptional()
  @IsIn(SPLIT_STATUSES)
  status?: SplitStatus;

  // Issue 27: the SME's "unpaid" filter across every page (OPEN,PARTIALLY_PAID,OVERDUE).
  @ApiPropertyOptional({
    example: 'OPEN,PARTIALLY_PAID,OVERDUE',
    description: `Only Splits whose bill is in one of these collection statuses, comma-separated (${COLLECTION_STATUSES.join(', ')}); Splits not billed yet never match`,
  })
  @IsOptional()
  @Matches(COLLECTION_STATUS_LIST, { message: `collectionStatus must be a comma-separated list of ${COLLECTION_STATUSES.join(', ')}` })
  collectionStatus?: string;
}
