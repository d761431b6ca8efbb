import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { CompanyQueries } from './application/company-queries';
import { CompanySettingsHandler } from './application/company-settings.handler';
import { CreateBusinessProfileHandler } from './application/create-business-profile.handler';
import { CreateSandboxCreatorHandler } from './application/create-sandbox-creator.handler';
import { SubVendorRegistry } from './application/sub-vendor-registry';
import { PartiesController } from './http/parties.controller';
import { PartiesReadModelProjection } from './projections/parties-read-model.projection';

const providers = [CompanyQueries, CompanySettingsHandler, CreateBusinessProfileHandler, CreateSandboxCreatorHandler, SubVendorRegistry, PartiesReadModelProjection];

@Module({
  imports: [IdentityModule],
  controllers: [PartiesController],
  providers,
  exports: [CompanyQueries, SubVendorRegistry, CreateSandboxCreatorHandler],
})
export class PartiesModule {}
