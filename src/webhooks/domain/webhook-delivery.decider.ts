import { assertNever, Decider } from '../../platform/domain/decider';
import { RETRY_DELAYS_SECONDS } from './webhook-event-types';
import { DeliveryBody, WebhookDeliveryEvent } from './webhooks.events';
import { CommandMetadata } from '../../platform/domain/command';

export type DeliveryState =
  | { status: 'none' }
  | {
      status: 'pending' | 'succeeded' | 'failed';
      deliveryId: string;
      endpointId: string;
      companyId: string;
      lastAttempt: number;
      /** First attempt number of the current series (1, or the attempt a redelivery started). */
      seriesStart: number;
      nextAttemptAt: string | null;
    };

export type DeliveryCommand =
  | { type: 'CreateDelivery'; data: { deliveryId: string; endpointId: string; companyId: string; body: DeliveryBody }; metadata: CommandMetadata }
  | {
      type: 'RecordAttempt';
      data: {
        attempt: number;
        succeeded: boolean;
        responseStatus: number | null;
        latencyMs: number;
        error: string | null;
        attemptedAt: string;
        /** The X-Paysplit-Timestamp and X-Paysplit-Signature this attempt sent (the delivery log shows them). */
        signedAt: string;
        signature: string;
        /** 2 while the endpoint is on probation, 6 after. */
        retriesAllowed: number;
      };
    }
  | { type: 'RequestRedelivery'; data: { requestedBy: string }; metadata: CommandMetadata };

/**
 * One delivery of one event to one endpoint (a stable delivery id across retries): the rules of its
 * retry schedule. Attempts are numbered; recording an attempt that is not the next one changes nothing,
 * so an attempt sent twice never counts twice. Its state and events are kept as an operational row
 * (WebhookDeliveryStore), not as an event stream: the worker folds a row into this state, decides, and
 * writes the outcome back in one conditional update.
 */
export const deliveryDecider: Decider<DeliveryCommand, WebhookDeliveryEvent, DeliveryState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateDelivery':
        return state.status === 'none' ? [{ type: 'webhook.delivery.created', data: { ...command.data, createdAt: command.metadata.now } }] : [];
      case 'RecordAttempt':
        return recordAttempt(command.data, state);
      case 'RequestRedelivery':
        return requestRedelivery(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'webhook.delivery.created': {
        const { deliveryId, endpointId, companyId, createdAt } = event.data;
        return { status: 'pending', deliveryId, endpointId, companyId, lastAttempt: 0, seriesStart: 1, nextAttemptAt: createdAt };
      }
      case 'webhook.delivery.attempted': {
        if (state.status === 'none') return state;
        const status = event.data.succeeded ? 'succeeded' : event.data.nextAttemptAt ? 'pending' : 'failed';
        return { ...state, status, lastAttempt: event.data.attempt, nextAttemptAt: event.data.nextAttemptAt };
      }
      case 'webhook.delivery.redelivery_requested':
        if (state.status === 'none') return state;
        return { ...state, status: 'pending', seriesStart: event.data.attempt, nextAttemptAt: event.data.requestedAt };
      default:
        return assertNever(event);
    }
  },
};

function recordAttempt(data: Extract<DeliveryCommand, { type: 'RecordAttempt' }>['data'], state: DeliveryState): WebhookDeliveryEvent[] {
  if (state.status !== 'pending' || data.attempt !== state.lastAttempt + 1) return [];
  const retryIndex = data.attempt - state.seriesStart;
  const retry = !data.succeeded && retryIndex < data.retriesAllowed;
  const nextAttemptAt = retry ? new Date(Date.parse(data.attemptedAt) + RETRY_DELAYS_SECONDS[retryIndex]! * 1000).toISOString() : null;
  // Field by field, not a rest and a spread of `data`: it runs once per attempt on the delivery worker's hot path.
  const { attempt, succeeded, responseStatus, latencyMs, error, attemptedAt, signedAt, signature } = data;
  return [
    {
      type: 'webhook.delivery.attempted',
      data: { deliveryId: state.deliveryId, endpointId: state.endpointId, attempt, succeeded, responseStatus, latencyMs, error, attemptedAt, signedAt, signature, nextAttemptAt },
    },
  ];
}

/** Sends again from the start of a fresh series, whatever happened before. */
function requestRedelivery(data: Extract<DeliveryCommand, { type: 'RequestRedelivery' }>['data'], state: DeliveryState, meta: CommandMetadata): WebhookDeliveryEvent[] {
  if (state.status === 'none') return [];
  return [
    {
      type: 'webhook.delivery.redelivery_requested',
      data: { deliveryId: state.deliveryId, endpointId: state.endpointId, attempt: state.lastAttempt + 1, requestedAt: meta.now, requestedBy: data.requestedBy },
    },
  ];
}
