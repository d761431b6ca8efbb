import { Body, Controller, Get, Inject, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { SplitSettingsForSelfError, SubVendorNotFoundError } from '../domain/parties.errors';
import { BusinessProfileDto, CompanyViewDto, SmeSplitSettingsDto, SplitSettingsDto, SubVendorDto } from './parties.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuth, commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { Page } from '../../platform/http/envelope';
import { PageQueryDto, pageOf } from '../../platform/http/pagination';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { CompanyNotFoundError } from '../domain/parties.errors';
import { CompanyQueries } from '../application/company-queries';
import { CreateBusinessProfileMessage } from '../application/create-business-profile.handler';
import { RegisterSubVendorMessage } from '../application/register-sub-vendor.handler';
import { SetSubVendorWalletEmailMessage } from '../application/set-sub-vendor-wallet-email.handler';
import { subVendorView } from '../application/sub-vendor-view';
import { SetNetTermsMessage } from '../application/set-net-terms.handler';
import { SetSplitSettingsMessage } from '../application/set-split-settings.handler';
import { BusinessProfileDoc, SubVendorDoc } from '../projections/parties-read-model.projection';
import {
  CreateBusinessProfileRequestDto,
  CreateSubVendorRequestDto,
  SetSubVendorWalletEmailRequestDto,
  SplitSettingsRequestDto,
  UpdateCompanyRequestDto,
} from './parties.request.dto';

@ApiTags('parties')
@ApiBearerAuth()
@Controller('api/commerce')
export class PartiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly companies: CompanyQueries,
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
  ) {}

  @ApiData(CompanyViewDto)
  @ApiErrors(CompanyNotFoundError)
  @Get('company')
  @SessionAuth()
  @ApiOperation({ summary: "The caller's company: name and net terms" })
  async company(@CurrentPrincipal() principal: Principal) {
    const company = await this.companies.company(principal.companyId);
    if (!company) throw new CompanyNotFoundError();
    return company;
  }

  @ApiData(CompanyViewDto)
  @Patch('company')
  @SessionAuth()
  @ApiOperation({ summary: 'Set net terms (days) the company is billed on as an enterprise' })
  async updateCompany(@Body() body: UpdateCompanyRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    await this.commands.execute(new SetNetTermsMessage(principal.companyId, body.netTermsDays, commandContext(request, principal)));
    return this.companies.company(principal.companyId);
  }

  @ApiData(BusinessProfileDto)
  @Post('business-profiles')
  @SessionAuth()
  @ApiOperation({ summary: 'Add an accounts-payable contact (business profile) of the caller company' })
  createBusinessProfile(@Body() body: CreateBusinessProfileRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new CreateBusinessProfileMessage(principal.companyId, body.displayName, body.email, commandContext(request, principal)));
  }

  @ApiData(BusinessProfileDto, { isArray: true })
  @Get('business-profiles')
  @SessionAuth()
  @ApiOperation({ summary: "The caller company's business profiles" })
  listBusinessProfiles(@CurrentPrincipal() principal: Principal) {
    return this.store.find<BusinessProfileDoc>('business_profiles', { filter: { companyId: principal.companyId }, sort: [{ field: 'createdAt', direction: 'asc' }] });
  }

  @ApiData(SmeSplitSettingsDto, { isArray: true })
  @Get('split-settings')
  @SessionAuth()
  @ApiOperation({ summary: 'As an enterprise, the settings (auto-accept, fee cover) set for each SME, most recently changed first' })
  listSplitSettings(@CurrentPrincipal() principal: Principal) {
    return this.companies.splitSettingsList(principal.companyId);
  }

  @ApiData(SplitSettingsDto)
  @ApiErrors(CompanyNotFoundError, SplitSettingsForSelfError)
  @Put('split-settings/sme/:smeCompanyId')
  @SessionAuth()
  @ApiOperation({ summary: "As an enterprise, set auto-accept and fee cover for one SME's Splits" })
  splitSettings(@Param('smeCompanyId') smeCompanyId: string, @Body() body: SplitSettingsRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new SetSplitSettingsMessage(principal.companyId, smeCompanyId, body, commandContext(request, principal)));
  }

  @ApiData(SubVendorDto, { replayed: true })
  @Post('integration/sub-vendors')
  @ApiKeyAuth('split:write')
  @ApiOperation({
    summary:
      "Add a vendor to the SME's roster (idempotent per email: the existing one comes back with 200). It shows only what the SME supplied, plus hasWallet; never the name or wallet of an account the email already has",
  })
  async createSubVendor(
    @Body() body: CreateSubVendorRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new RegisterSubVendorMessage(
        principal.companyId,
        { email: body.email, fullName: body.fullName ?? null, walletEmail: body.walletEmail ?? null, kind: body.kind ?? 'PERSON' },
        commandContext(request, principal),
      ),
    );
    if (!result.created) void reply.status(200).header('Idempotent-Replayed', 'true');
    return subVendorView(this.store, result.subVendor);
  }

  @ApiData(SubVendorDto)
  @ApiErrors(SubVendorNotFoundError)
  @Patch('integration/sub-vendors/:id')
  @ApiKeyAuth('split:write')
  @ApiOperation({ summary: "Add or change a sub-vendor's wallet email (own roster only, else 404), so instant payout can be elected for it" })
  async setSubVendorWalletEmail(
    @Param('id') id: string,
    @Body() body: SetSubVendorWalletEmailRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ) {
    const subVendor = await this.commands.execute(new SetSubVendorWalletEmailMessage(principal.companyId, id, body.walletEmail, commandContext(request, principal)));
    return subVendorView(this.store, subVendor);
  }

  @ApiPage(SubVendorDto)
  @Get('integration/sub-vendors')
  @ApiKeyAuth('split:write')
  @ApiOperation({ summary: "The SME's roster of sub-vendors, oldest first" })
  async listSubVendors(@Query() query: PageQueryDto, @CurrentPrincipal() principal: Principal) {
    const { page, limit, skip } = pageOf(query);
    const filter = { smeCompanyId: principal.companyId };
    const [items, total] = await Promise.all([
      this.store.find<SubVendorDoc>('sub_vendors', { filter, sort: [{ field: 'createdAt', direction: 'asc' }], skip, limit }),
      this.store.count('sub_vendors', filter),
    ]);
    return Page.of(await Promise.all(items.map((item) => subVendorView(this.store, item))), page, limit, total);
  }
}
