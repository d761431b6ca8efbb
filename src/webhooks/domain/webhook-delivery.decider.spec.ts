import { deliveryDecider, DeliveryCommand, DeliveryState } from './webhook-delivery.decider';
import { WebhookDeliveryEvent } from './webhooks.events';
import { fold } from '../../platform/domain/decider';
import { given } from '../../../test/support/given-when-then';

const body = { id: 'evt_1', type: 'split.leg_a.approved', createdAt: '2026-01-01T00:00:00.000Z', data: { splitId: 'spl_1', legAPayoutId: 'po_1' } };
const created: WebhookDeliveryEvent = {
  type: 'webhook.delivery.created',
  data: { deliveryId: 'dlv_1', endpointId: 'we_1', companyId: 'co_1', body, createdAt: '2026-01-01T00:00:00.000Z' },
};

/** The first attempt, succeeded: what `attempt(1, created's time, true, 6)` records. */
const succeeded: WebhookDeliveryEvent = {
  type: 'webhook.delivery.attempted',
  data: {
    deliveryId: 'dlv_1',
    endpointId: 'we_1',
    attempt: 1,
    succeeded: true,
    responseStatus: 200,
    latencyMs: 5,
    error: null,
    attemptedAt: '2026-01-01T00:00:00.000Z',
    nextAttemptAt: null,
  },
};

function attempt(n: number, at: string, succeeded: boolean, retriesAllowed: number): DeliveryCommand {
  return {
    type: 'RecordAttempt',
    data: { attempt: n, succeeded, responseStatus: succeeded ? 200 : 500, latencyMs: 5, error: null, attemptedAt: at, signedAt: '1767225600', signature: 'sig', retriesAllowed },
  };
}

/** Runs failing attempts at their due times and returns the due times seen. */
function failUntilExhausted(retriesAllowed: number): string[] {
  let events: WebhookDeliveryEvent[] = [created];
  const times: string[] = [];
  for (let n = 1; ; n++) {
    const state: DeliveryState = fold(deliveryDecider, events);
    if (state.status !== 'pending') return times;
    times.push(state.nextAttemptAt!);
    events = [...events, ...deliveryDecider.decide(attempt(n, state.nextAttemptAt!, false, retriesAllowed), state)];
  }
}

describe('delivery decider', () => {
  it('creates a delivery once', () => {
    const command: DeliveryCommand = {
      type: 'CreateDelivery',
      data: { deliveryId: 'dlv_1', endpointId: 'we_1', companyId: 'co_1', body },
      metadata: { now: '2026-01-01T00:00:00.000Z', actor: 'system' },
    };
    given(deliveryDecider).when(command).then([created]);
    given(deliveryDecider, created).when(command).thenNothing();
  });

  it('retries a graduated endpoint after 5 min, 15 min, 1 h, 1 day, 3 days, 7 days: 7 attempts', () => {
    expect(failUntilExhausted(6)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:05:00.000Z',
      '2026-01-01T00:20:00.000Z',
      '2026-01-01T01:20:00.000Z',
      '2026-01-02T01:20:00.000Z',
      '2026-01-05T01:20:00.000Z',
      '2026-01-12T01:20:00.000Z',
    ]);
  });

  it('gives an endpoint on probation 3 attempts in all', () => {
    expect(failUntilExhausted(2)).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:05:00.000Z', '2026-01-01T00:20:00.000Z']);
  });

  it('stops at the first success and ignores a repeated or out-of-order attempt', () => {
    given(deliveryDecider, created)
      .when(attempt(1, '2026-01-01T00:00:00.000Z', true, 6))
      .then(([ok]) => expect(ok).toMatchObject({ type: 'webhook.delivery.attempted', data: { attempt: 1, succeeded: true, nextAttemptAt: null } }));
    expect(fold(deliveryDecider, [created, succeeded]).status).toBe('succeeded');
    given(deliveryDecider, created, succeeded)
      .when(attempt(2, '2026-01-01T00:01:00.000Z', false, 6))
      .thenNothing();
    given(deliveryDecider, created)
      .when(attempt(3, '2026-01-01T00:01:00.000Z', false, 6))
      .thenNothing();
  });

  it('redelivers from a fresh series after success or exhaustion', () => {
    const again: WebhookDeliveryEvent = {
      type: 'webhook.delivery.redelivery_requested',
      data: { deliveryId: 'dlv_1', endpointId: 'we_1', attempt: 2, requestedAt: '2026-02-01T00:00:00.000Z', requestedBy: 'user:usr_1' },
    };
    given(deliveryDecider, created, succeeded)
      .when({ type: 'RequestRedelivery', data: { requestedBy: 'user:usr_1' }, metadata: { now: '2026-02-01T00:00:00.000Z', actor: 'system' } })
      .then([again]);
    given(deliveryDecider, created, succeeded, again)
      .when(attempt(2, '2026-02-01T00:00:00.000Z', false, 6))
      .then(([failed]) => expect(failed).toMatchObject({ data: { attempt: 2, nextAttemptAt: '2026-02-01T00:05:00.000Z' } }));
  });
});
