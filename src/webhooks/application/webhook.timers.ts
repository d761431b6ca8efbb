import { defineTimer } from '../../platform/timers/timer-definition';

/** Attempt `attempt` of a delivery's retry series starting at `seriesStart` (a redelivery starts a new series). */
export type AttemptTimerPayload = { deliveryId: string; seriesStart: number; attempt: number };

export const webhookAttemptTimer = defineTimer<AttemptTimerPayload>('webhook.attempt', (p) => [p.deliveryId, p.seriesStart, p.attempt]);
