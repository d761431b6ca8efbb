// Public API of the split module for other modules: the Nest module and its read-side queries.
export { SplitModule } from './split.module';
export { SplitQueries, type SplitParty } from './application/split-queries';
