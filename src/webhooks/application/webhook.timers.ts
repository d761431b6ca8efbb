import { defineTimer } from '../../platform/timers/timer-definition';

/**
 * Attempt `attempt` of a delivery's retry series starting at `seriesStart` (a redelivery starts a new
 * series). `endpointId` partitions the timer worker's webhook pool, so a hanging endpoint holds only its
 * own few slots (timers scheduled before it was added have none and share the kind's pool).
 */
export type AttemptTimerPayload = { deliveryId: string; seriesStart: number; attempt: number; endpointId: string };

export const webhookAttemptTimer = defineTimer<AttemptTimerPayload>('webhook.attempt', (p) => [p.deliveryId, p.seriesStart, p.attempt], {
  partition: (p) => p.endpointId ?? null,
});
