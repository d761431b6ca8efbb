import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { CompanyQueries } from './application/company-queries';
import { CreateBusinessProfileHandler } from './application/create-business-profile.handler';
import { CreateSandboxCreatorHandler } from './application/create-sandbox-creator.handler';
import { RegisterSubVendorHandler } from './application/register-sub-vendor.handler';
import { SetSubVendorWalletEmailHandler } from './application/set-sub-vendor-wallet-email.handler';
import { SetNetTermsHandler } from './application/set-net-terms.handler';
import { SetSplitSettingsHandler } from './application/set-split-settings.handler';
import { SubVendorRegistry } from './application/sub-vendor-registry';
import { PartiesController } from './http/parties.controller';
import { PartiesReadModelProjection } from './projections/parties-read-model.projection';
import { ApprovalPolicyProjection } from './projections/approval-policy.projection';
import { SetApprovalPolicyHandler } from './application/set-approval-policy.handler';
import { ApprovalPolicyController } from './http/approval-policy.controller';

const providers = [
  CompanyQueries,
  SubVendorRegistry,
  PartiesReadModelProjection,
  SetNetTermsHandler,
  SetSplitSettingsHandler,
  CreateBusinessProfileHandler,
  CreateSandboxCreatorHandler,
  RegisterSubVendorHandler,
  SetSubVendorWalletEmailHandler,
  ApprovalPolicyProjection,
  SetApprovalPolicyHandler,
];

@Module({
  imports: [IdentityModule],
  controllers: [PartiesController, ApprovalPolicyController],
  providers,
  exports: [CompanyQueries, SubVendorRegistry],
})
export class PartiesModule {}
