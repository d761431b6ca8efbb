import { defineTimer } from '../../platform/timers/timer-definition';

/** A row reached net-terms maturity, or a failed transfer is due for attempt `attempt`. */
export const rowTransferTimer = defineTimer<{ splitId: string; distributionId: string; instant: boolean; attempt: number }>('split.row_transfer', (p) => [
  p.distributionId,
  p.attempt,
]);

/** Net terms matured: release a margin still held. */
export const marginReleaseTimer = defineTimer<{ splitId: string }>('split.margin_release', (p) => [p.splitId]);
