import { ApiProperty } from '@nestjs/swagger';

const nullableString = { nullable: true, type: String } as const;

export class CompanyViewDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) companyId!: string;
  @ApiProperty({ example: 'Acme Staffing' }) name!: string;
  @ApiProperty({ example: 30, description: 'Net terms (days) the company is billed on as an enterprise' }) netTermsDays!: number;
}

export class BusinessProfileDto {
  @ApiProperty({ example: 'bp_00mwvg57l6knkdr530fp5btkw5' }) id!: string;
  @ApiProperty({ example: 'co_00mwvg57iys9jh6er9t8ie7glh' }) companyId!: string;
  @ApiProperty({ example: 'Accounts Payable' }) displayName!: string;
  @ApiProperty({ example: 'ap@enterprise.test' }) email!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.290Z' }) createdAt!: string;
}

export class SplitSettingsDto {
  @ApiProperty({ example: 'co_00mwvg57iys9jh6er9t8ie7glh' }) enterpriseCompanyId!: string;
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) smeCompanyId!: string;
  @ApiProperty() autoAccept!: boolean;
  @ApiProperty() coverFees!: boolean;
}

/** The settings an enterprise set for one SME (GET /api/commerce/parties/split-settings). */
export class SmeSplitSettingsDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) smeCompanyId!: string;
  @ApiProperty({ example: 'Acme Staffing' }) smeCompanyName!: string;
  @ApiProperty() autoAccept!: boolean;
  @ApiProperty() coverFees!: boolean;
  @ApiProperty({ example: '2026-11-25T01:30:13.290Z' }) updatedAt!: string;
}

export class SubVendorDto {
  @ApiProperty({ example: 'sv_g05re5d09dfabuimrdp7rkbe41' }) id!: string;
  @ApiProperty() smeCompanyId!: string;
  @ApiProperty({ example: 'vendor@example.test' }) email!: string;
  @ApiProperty({ ...nullableString, description: 'The name the SME supplied (never the name of the account behind the email)' }) fullName!: string | null;
  @ApiProperty({ ...nullableString, description: 'The wallet email the SME supplied (never the wallet of the account behind the email)' }) walletEmail!: string | null;
  @ApiProperty({
    description:
      "A wallet is on file for this vendor's rows: the one the SME supplied, or the account's own wallet while it is active and verified (instant payout and auto-withdraw need one)",
  })
  hasWallet!: boolean;
  @ApiProperty({ enum: ['PERSON', 'BUSINESS'] }) kind!: string;
  @ApiProperty({ ...nullableString, description: 'The (passwordless) account made for the email' }) userId!: string | null;
  @ApiProperty(nullableString) creatorProfileId!: string | null;
  @ApiProperty({ example: '2026-11-25T01:30:13.308Z' }) createdAt!: string;
}

export class SandboxCreatorDto {
  @ApiProperty({ example: 'usr_00mwvg57lxb7hnqibkfjvjsnla' }) userId!: string;
  @ApiProperty({ example: 'crp_00mwvg57m41cfjr9qdog2ekp4p' }) creatorProfileId!: string;
  @ApiProperty({ example: 'cpp_00mwvg57m41zljsztv8ew4az0f', description: 'Use as contractorPaymentProfileId in a roster row' }) paymentProfileId!: string;
}

export class OutboxMessageDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'dana@contractor.test' }) to!: string;
  @ApiProperty({ example: 'Your Paysplit account is ready' }) subject!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ example: 'http://localhost:3000/api/auth/magic-link?token=ml_...' }) link!: string;
  @ApiProperty({ example: '2026-11-25T01:30:29.139Z' }) sentAt!: string;
}
