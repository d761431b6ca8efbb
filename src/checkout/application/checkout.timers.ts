import { defineTimer } from '../../platform/timers/timer-definition';

/** An unpaid buyer order expires 24 h after its creation. */
export const orderExpiryTimer = defineTimer<{ orderId: string }>('checkout.order_expiry', (p) => [p.orderId]);

/** A subscription's renewal for a period is due (attempt 1), or a declined renewal is retried. */
export const renewalTimer = defineTimer<{ subscriptionId: string; periodIndex: number; attempt: number }>('checkout.renewal', (p) => [p.subscriptionId, p.periodIndex, p.attempt]);
