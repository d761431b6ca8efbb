import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { NET_TERMS_MAX_DAYS, NET_TERMS_MIN_DAYS } from '../domain/net-terms';

export class CreateBusinessProfileRequestDto {
  @ApiProperty({ example: 'Globex Accounts Payable' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  displayName!: string;

  @ApiProperty({ example: 'ap@globex.test' })
  @IsEmail()
  @MaxLength(254)
  email!: string;
}

export class UpdateCompanyRequestDto {
  @ApiProperty({ example: 45, description: 'Net terms in days when this company is billed as an enterprise (default 30)' })
  @IsInt()
  @Min(NET_TERMS_MIN_DAYS)
  @Max(NET_TERMS_MAX_DAYS)
  netTermsDays!: number;
}

export class SplitSettingsRequestDto {
  @ApiProperty({ description: "Approve this SME's Splits automatically at creation" })
  @IsBoolean()
  autoAccept!: boolean;

  @ApiProperty({ description: 'The enterprise pays the leg A fee (LEG_A_FEE_BPS of the total)' })
  @IsBoolean()
  coverFees!: boolean;
}

export class CreateSubVendorRequestDto {
  @ApiProperty({ example: 'dana@contractor.test' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ example: 'Dana Contractor' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  fullName?: string;

  @ApiPropertyOptional({ example: 'dana.wallet@contractor.test', description: 'Needed before an instant payout can be elected' })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  walletEmail?: string;

  @ApiPropertyOptional({ enum: ['PERSON', 'BUSINESS'], default: 'PERSON' })
  @IsOptional()
  @IsIn(['PERSON', 'BUSINESS'])
  kind?: 'PERSON' | 'BUSINESS';
}

export class SetSubVendorWalletEmailRequestDto {
  @ApiProperty({ example: 'dana.wallet@contractor.test', description: 'The wallet instant payouts go to; needed before an instant payout can be elected' })
  @IsEmail()
  @MaxLength(254)
  walletEmail!: string;
}

export class CreateSandboxCreatorRequestDto {
  @ApiProperty({ example: 'Casey Creator' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  fullName!: string;

  @ApiProperty({ example: 'casey@creator.test' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ example: 'casey.wallet@creator.test' })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  walletEmail?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  walletVerified?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}
