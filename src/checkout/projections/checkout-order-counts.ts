import { ProjectionWriter } from '../../platform/projections/projection';
import type { OrderStatus } from '../domain/checkout.events';

/**
 * Per merchant, how many orders its two unnarrowed lists hold: the default list (every order but the
 * unlisted ones) and each status. The list's `total` is read from here instead of a COUNT, which is
 * linear in the merchant's orders: at ~30,000 orders it was 15% of the api's main thread in the
 * mixed bench (docs/decisions.md, "The order list's total is a counter").
 */
export const CHECKOUT_ORDER_COUNTS = 'checkout_order_counts';

export interface OrderCountsView {
  /** The merchant's company id. */
  id: string;
  /** Orders the default list shows (`unlisted` not set). */
  listed: number;
  /** Orders in each status, unlisted ones included (a list narrowed to a status shows them all). */
  statuses: Partial<Record<OrderStatus, number>>;
}

/** What of an order its merchant's counts depend on. */
export interface CountedOrder {
  merchantCompanyId: string;
  status: OrderStatus;
  unlisted?: true;
}

/** Moves the merchant's counts from the order as it was (null: new) to the order as it is now. */
export async function countOrderChange(writer: ProjectionWriter, before: CountedOrder | null, after: CountedOrder): Promise<void> {
  if (before && before.status === after.status && before.unlisted === after.unlisted) return;
  const stored = await writer.edit<OrderCountsView>(CHECKOUT_ORDER_COUNTS, after.merchantCompanyId);
  const counts = stored ?? { id: after.merchantCompanyId, listed: 0, statuses: {} };
  if (before) tally(counts, before, -1);
  tally(counts, after, 1);
  if (!stored) writer.put<OrderCountsView>(CHECKOUT_ORDER_COUNTS, counts);
}

function tally(counts: OrderCountsView, order: CountedOrder, by: 1 | -1): void {
  counts.statuses[order.status] = (counts.statuses[order.status] ?? 0) + by;
  if (order.unlisted !== true) counts.listed += by;
}
