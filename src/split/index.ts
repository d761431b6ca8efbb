// Public API of the split module for other modules: the Nest module and its read-side queries.
export { SplitModule } from './split.module';
export { SplitQueries, type SplitParty } from './application/split-queries';
export { SetAsideSmeCoveredFeesMessage } from './application/sme-covered-fees';
export { splitDecider } from './domain/split.decider';
export { coveredFeeCover } from './domain/covered-fees';
export { splitExists } from './domain/split.state';
export { netTermsMaturity } from './domain/row-transfer-schedule';
export { SPLIT_EVENT_TYPES, SPLIT_STREAM_PREFIX, splitStreamId, type DistributionData, type SplitEvent } from './domain/split.events';
export { SplitNotFoundError } from './domain/split.errors';
// What webhooks sends for Split events: the public events and payloads, and the company they go to.
export { splitPublicEvent, type SplitPublicEvent, type SplitLegAPayload, type SplitRosterEntryPayload, type SplitMarginPayload } from './domain/split.public-events';
export { splitOwner } from './application/split-owner';
// The collection module's invoices (issue 27): what the Split read model reads of them.
export {
  COLLECTION_STATUS_LIST,
  COLLECTION_STATUSES,
  collectionStatusesOf,
  INVOICE_STREAM_PREFIX,
  invoiceIdOf,
  type CollectionStatus,
  type InvoiceFact,
} from './domain/split-collection';
export type { ExistingSplit } from './domain/split.state';
// Issue 29: a contractor's approved rows not paid yet, for its earnings.
export { upcomingRowsOf, type UpcomingRow } from './application/contractor-upcoming-rows';
