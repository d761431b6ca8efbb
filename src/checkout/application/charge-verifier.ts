import { EventStore } from '../../platform/event-store/event-store.port';
import { ORDER_STREAM_PREFIX, OrderEvent } from '../domain/checkout.events';
import { ChargeRecord } from '../domain/payment-processor.port';

/**
 * `ledger:verify`'s checkout rule (docs/money.md#charge-intent): every captured charge is recorded exactly
 * once, as paid or as voided. Checkout money is not in the ledger yet, so this reads the order streams
 * and, in the sandbox, what the processor itself holds by idempotency key.
 */
export interface ChargeViolation {
  rule: 'checkout_charge';
  message: string;
}

export interface ChargeReport {
  orders: number;
  /** Attempts recorded as paid, recorded as voided, and still waiting for the processor's answer. */
  paid: number;
  voided: number;
  inFlight: number;
  /** Charges the processor holds (null: no processor record to compare with, outside the sandbox). */
  processorCharges: number | null;
  violations: ChargeViolation[];
}

/** How one order recorded its payment attempts. */
export interface OrderCharges {
  orderId: string;
  started: string[];
  /** One entry per `checkout.order.paid`: the attempt it names, or null for a payment recorded before attempts were. */
  paid: (string | null)[];
  voided: string[];
  inFlight: string | null;
}

/** Reads every order stream's payment events, in log order. */
export async function replayCheckoutCharges(events: EventStore): Promise<OrderCharges[]> {
  const orders = new Map<string, OrderCharges>();
  for (let after: number | undefined; ;) {
    const batch = await events.readAll({ after, maxCount: 1000 });
    if (batch.length === 0) break;
    for (const recorded of batch) {
      if (!recorded.streamId.startsWith(ORDER_STREAM_PREFIX)) continue;
      const event = { type: recorded.type, data: recorded.data } as OrderEvent;
      const orderId = event.data.orderId;
      const order = orders.get(orderId) ?? { orderId, started: [], paid: [], voided: [], inFlight: null };
      orders.set(orderId, foldCharges(order, event));
    }
    after = batch[batch.length - 1]!.position;
  }
  return [...orders.values()];
}

function foldCharges(order: OrderCharges, event: OrderEvent): OrderCharges {
  switch (event.type) {
    case 'checkout.order.payment_attempt_started':
      return { ...order, started: [...order.started, event.data.attemptId], inFlight: event.data.attemptId };
    case 'checkout.order.paid':
      return { ...order, paid: [...order.paid, event.data.attemptId ?? null], inFlight: null };
    case 'checkout.order.charge_voided':
      return { ...order, voided: [...order.voided, event.data.attemptId], inFlight: order.inFlight === event.data.attemptId ? null : order.inFlight };
    case 'checkout.order.payment_attempt_abandoned':
    case 'checkout.order.action_required':
    case 'checkout.order.payment_declined':
    case 'checkout.order.failed':
    case 'checkout.order.expired':
      return { ...order, inFlight: null };
    default:
      return order;
  }
}

/**
 * The rule, per order: paid at most once; each attempt recorded (paid or void) at most once, and only an
 * attempt that was started. Against the processor's records, when given: each charge it captured is
 * recorded paid, each it voided is recorded void, and each recorded payment names a charge it captured.
 */
export function verifyCheckoutCharges(orders: OrderCharges[], processorCharges: ChargeRecord[] | null): ChargeReport {
  const violations: ChargeViolation[] = [];
  const violation = (message: string) => violations.push({ rule: 'checkout_charge', message });
  const outcomeOf = new Map<string, { orderId: string; kinds: string[] }>();
  for (const order of orders) {
    if (order.paid.length > 1) violation(`${order.orderId}: paid ${order.paid.length} times`);
    const recorded = [
      ...order.paid.filter((a): a is string => a !== null).map((a) => ({ attemptId: a, kind: 'paid' })),
      ...order.voided.map((a) => ({ attemptId: a, kind: 'voided' })),
    ];
    for (const { attemptId, kind } of recorded) {
      if (!order.started.includes(attemptId)) violation(`${order.orderId}: ${kind} attempt ${attemptId} was never started`);
      const entry = outcomeOf.get(attemptId) ?? { orderId: order.orderId, kinds: [] };
      entry.kinds.push(kind);
      outcomeOf.set(attemptId, entry);
    }
  }
  for (const [attemptId, { orderId, kinds }] of outcomeOf) {
    if (kinds.length > 1) violation(`${orderId}: the charge of attempt ${attemptId} is recorded ${kinds.length} times (${kinds.join(', ')})`);
  }
  if (processorCharges) {
    const atProcessor = new Map(processorCharges.map((c) => [c.attemptId, c]));
    for (const charge of processorCharges) {
      if (charge.status !== 'captured' && charge.status !== 'voided') continue;
      const kinds = outcomeOf.get(charge.attemptId)?.kinds ?? [];
      if (kinds.length === 0)
        violation(`${charge.orderId}: the processor ${charge.status} ${charge.amountMinorUnits} ${charge.currency} under ${charge.attemptId}, recorded neither paid nor voided`);
      else if (charge.status === 'captured' && !kinds.includes('paid'))
        violation(`${charge.orderId}: ${charge.attemptId} is recorded voided but the processor still holds the charge`);
      else if (charge.status === 'voided' && !kinds.includes('voided')) violation(`${charge.orderId}: ${charge.attemptId} is recorded paid but the processor voided it`);
    }
    for (const [attemptId, { orderId, kinds }] of outcomeOf) {
      if (!atProcessor.has(attemptId)) violation(`${orderId}: attempt ${attemptId} is recorded ${kinds.join(', ')} but the processor holds no charge under it`);
    }
  }
  return {
    orders: orders.length,
    paid: [...outcomeOf.values()].filter((o) => o.kinds.includes('paid')).length,
    voided: [...outcomeOf.values()].filter((o) => o.kinds.includes('voided')).length,
    inFlight: orders.filter((o) => o.inFlight !== null).length,
    processorCharges: processorCharges ? processorCharges.filter((c) => c.status === 'captured' || c.status === 'voided').length : null,
    violations,
  };
}
