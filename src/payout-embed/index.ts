// Public API of the payout-embed module: its Nest module, the balance top-up command the sandbox
// sends, and the streams and events the ledger and webhooks follow.
export { BALANCE_STREAM_PREFIX, SESSION_STREAM_PREFIX, LIFECYCLE_STATUS, type BalanceEvent, type SessionEvent, type SessionRef } from './domain/payout-embed.events';
