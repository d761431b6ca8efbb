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
// Issue 29: the contractor's own wallet.
import { ContractorWalletController } from './http/contractor-wallet.controller';
import { ContractorWalletProjection } from './projections/contractor-wallet.projection';
import { SendWalletCodeHandler } from './application/send-wallet-code.handler';
import { VerifyWalletHandler } from './application/verify-wallet.handler';
import { WalletCodes } from './application/wallet-codes';

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
  ContractorWalletProjection,
  WalletCodes,
  SendWalletCodeHandler,
  VerifyWalletHandler,
];

@Module({
  imports: [IdentityModule],
  controllers: [PartiesController, ApprovalPolicyController, ContractorWalletController],
  providers,
  exports: [CompanyQueries, SubVendorRegistry],
})
export class PartiesModule {}
