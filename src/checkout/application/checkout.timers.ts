import { defineTimer } from '../../platform/timers/timer-definition';

/** An unpaid buyer order expires 24 h after its creation. */
export const orderExpiryTimer = defineTimer<{ orderId: string }>('checkout.order_expiry', (p) => [p.orderId]);

/** A subscription's renewal for a period is due (attempt 1), or a declined renewal is retried. */
export const renewalTimer = defineTimer<{ subscriptionId: string; periodIndex: number; attempt: number }>('checkout.renewal', (p) => [p.subscriptionId, p.periodIndex, p.attempt]);

/**
 * A buyer's payment attempt went stale (PAYMENT_ATTEMPT_STALE_MS after it started): if it is still in flight
 * (its process died), the processor is asked by its key and the answer recorded, so a charge taken before a
 * crash is recorded even when the buyer never tries again.
 */
export const paymentAttemptCheckTimer = defineTimer<{ orderId: string; attemptId: string }>('checkout.payment_attempt_check', (p) => [p.orderId, p.attemptId]);

/**
 * A refund still pending this long after it was requested (issue 26) is sent to the processor again under
 * its refund id (which refunds at most once), so a refund whose process died is answered and recorded.
 */
export const REFUND_CHECK_AFTER_MS = 60_000;
export const refundCheckTimer = defineTimer<{ orderId: string; refundId: string }>('checkout.refund_check', (p) => [p.orderId, p.refundId]);
