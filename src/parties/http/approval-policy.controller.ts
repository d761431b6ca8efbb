import { Body, Controller, Get, Inject, Put, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { approvalPoliciesOf } from '../application/parties.queries';
import { SetApprovalPolicyMessage } from '../application/set-approval-policy.handler';
import { CompanyNotFoundError, SplitSettingsForSelfError } from '../domain/parties.errors';

const DIGITS = /^(0|[1-9][0-9]{0,14})$/;

export class ApprovalPolicyRequestDto {
  @ApiPropertyOptional({
    example: 'co_00mwvg57bmrlmdka00oi8mkjzz',
    nullable: true,
    type: String,
    description: "The SME this policy is for; absent or null: the enterprise's default",
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  smeCompanyId?: string | null;

  @ApiProperty({ enum: [1, 2], example: 2, description: 'How many different members must approve a Split above aboveAmountCents' })
  @IsIn([1, 2])
  requiredApprovals!: 1 | 2;

  @ApiProperty({ example: '500000', description: 'Splits whose total is above this (minor units) need requiredApprovals; at or below it, one' })
  @Matches(DIGITS, { message: '$property must be a string of digits in minor units' })
  aboveAmountCents!: string;

  @ApiPropertyOptional({
    example: '100000',
    nullable: true,
    type: String,
    description: 'Auto-accept (split settings) applies only to Splits up to this total; null or absent: no cap',
  })
  @ValidateIf((_o, value) => value !== null && value !== undefined)
  @Matches(DIGITS, { message: '$property must be a string of digits in minor units' })
  autoAcceptCapCents?: string | null;
}

export class ApprovalPolicyDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) enterpriseCompanyId!: string;
  @ApiProperty({ nullable: true, type: String, description: "null: the enterprise's default" }) smeCompanyId!: string | null;
  @ApiProperty({ enum: [1, 2] }) requiredApprovals!: number;
  @ApiProperty({ example: '500000' }) aboveAmountCents!: string;
  @ApiProperty({ nullable: true, type: String, example: '100000' }) autoAcceptCapCents!: string | null;
}

/** Issue 30: an enterprise's approval policy for incoming Splits, per SME or as its default. */
@ApiTags('parties')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/approval-policy')
export class ApprovalPolicyController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  @ApiData(ApprovalPolicyDto, { isArray: true })
  @Get()
  @ApiOperation({ summary: "The enterprise's approval policies: its default (smeCompanyId null) and those per SME" })
  async list(@CurrentPrincipal() principal: Principal) {
    const policies = await approvalPoliciesOf(this.documents, principal.companyId);
    return policies.map(({ enterpriseCompanyId, smeCompanyId, requiredApprovals, aboveAmountCents, autoAcceptCapCents }) => ({
      enterpriseCompanyId,
      smeCompanyId,
      requiredApprovals,
      aboveAmountCents,
      autoAcceptCapCents,
    }));
  }

  @ApiData(ApprovalPolicyDto)
  @ApiErrors(CompanyNotFoundError, SplitSettingsForSelfError)
  @Put()
  @ApiOperation({
    summary:
      'Set how many members approve incoming Splits above an amount (1 or 2), and the cap up to which auto-accept applies, for one SME or as the default. Applies to Splits created from now on',
  })
  set(@Body() body: ApprovalPolicyRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(
      new SetApprovalPolicyMessage(
        principal.companyId,
        {
          smeCompanyId: body.smeCompanyId ?? null,
          requiredApprovals: body.requiredApprovals,
          aboveAmountCents: body.aboveAmountCents,
          autoAcceptCapCents: body.autoAcceptCapCents ?? null,
        },
        commandContext(request, principal),
      ),
    );
  }
}
