// Public API of the parties module: its Nest module, the sub-vendor registry Split rosters use, and the
// query functions through which other modules read parties' documents.
export { PartiesModule } from './parties.module';
export { CompanyQueries } from './application/company-queries';
export { SubVendorRegistry } from './application/sub-vendor-registry';
export { subVendorPayee } from './application/sub-vendor-view';
export { businessProfile, companySettings, creator, creatorOfUser, splitSettings, subVendor, subVendorsOfUser } from './application/parties.queries';
export { prefetchRosterParties, twoPersonThresholdOf } from './application/parties.queries';
export type { BusinessProfileDoc, CreatorDoc, SubVendorDoc } from './projections/parties-read-model.projection';
export { SandboxPartiesController } from './http/sandbox-parties.controller';
// Issue 29: the contractor's own wallet.
export { contractorWalletOf } from './application/contractor-wallet.queries';
export type { ContractorWalletDoc } from './projections/contractor-wallet.projection';
export { contractorOwnWallet } from './application/sub-vendor-view';
