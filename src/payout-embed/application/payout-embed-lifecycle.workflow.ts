import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { defineTimer } from '../../platform/timers/timer-definition';
import { NO_REACTION, Reaction, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { payoutEmbedSessionDecider, SessionState } from '../domain/payout-embed-session.decider';
import { BALANCE_STREAM_PREFIX, BalanceReserved, SESSION_STREAM_PREFIX, SessionEvent, sessionStreamId } from '../domain/payout-embed.events';
import { AbandonPayoutEmbedReservationMessage } from './abandon-payout-embed-reservation.handler';
import { ExpirePayoutEmbedSessionMessage } from './expire-payout-embed-session.handler';
import { SettleReservationMessage } from './settle-reservation.handler';
import { SettleSandboxPayoutMessage } from './settle-sandbox-payout.handler';

const ACTOR = 'system:payout-embed';

/** A session reached its expiresAt. */
export const sessionExpiryTimer = defineTimer<{ sessionId: string }>('payout_embed.expiry', (p) => [p.sessionId]);

/**
 * A while after each reservation: if its session was never written (the create died between its two
 * appends), close the session id on its stream (`payout_embed.session.abandoned`), then release the
 * reservation when that event is read. Closing the stream first serializes the timer with a retried
 * create of the same key, so no session is ever live on a released reservation (issue 23).
 */
export const abandonedReservationTimer = defineTimer<{ companyId: string; sessionId: string }>('payout_embed.abandoned_reservation', (p) => [p.sessionId]);
export const ABANDONED_AFTER_SECONDS = 300;

const HANDLED = new Set([
  'payout_embed.session.created',
  'payout_embed.session.payout_started',
  'payout_embed.session.completed',
  'payout_embed.session.failed',
  'payout_embed.session.expired',
  'payout_embed.session.cancelled',
  'payout_embed.session.abandoned',
  'company_balance.reserved',
]);

const commands = (...list: Reaction['commands']): Reaction => ({ commands: list, timers: [] });

/**
 * A session's lifecycle (docs/payout-embed.md#lifecycle): created -> expiry timer at expiresAt;
 * payout started -> the sandbox rail's outcome; completed -> the reservation is paid to the wallet;
 * failed, expired, cancelled -> the reservation is released. Every command is idempotent (the deciders
 * decide nothing on a repeat), so a replayed event changes nothing.
 */
export const payoutEmbedLifecycleWorkflow: Workflow<SessionState> = {
  name: 'payout_embed_lifecycle',
  streams: [SESSION_STREAM_PREFIX, BALANCE_STREAM_PREFIX],
  timers: [sessionExpiryTimer, abandonedReservationTimer],
  handles: (event) => HANDLED.has(event.type),
  async load(input, reader) {
    const sessionId = input.kind === 'timer' ? (input.timer.payload as { sessionId: string }).sessionId : (input.event.data as { sessionId: string }).sessionId;
    return (await reader.load(sessionStreamId(sessionId), payoutEmbedSessionDecider)).state;
  },
  react(input, state) {
    const context = workflowContext(ACTOR, input);
    if (input.kind === 'timer' && input.timer.kind === abandonedReservationTimer.kind) {
      const { companyId, sessionId } = abandonedReservationTimer.payloadOf(input.timer);
      return state.session || state.abandoned ? NO_REACTION : commands(new AbandonPayoutEmbedReservationMessage(companyId, sessionId, context));
    }
    if (input.kind === 'timer') return commands(new ExpirePayoutEmbedSessionMessage(sessionExpiryTimer.payloadOf(input.timer).sessionId, context));
    if (input.event.type === 'company_balance.reserved') {
      const { companyId, sessionId, reservedAt } = (input.event as unknown as BalanceReserved).data;
      const dueAt = new Date(Date.parse(reservedAt) + ABANDONED_AFTER_SECONDS * 1000).toISOString();
      return { commands: [], timers: [abandonedReservationTimer.at(dueAt, { companyId, sessionId })] };
    }
    const event = eventOf(input.event);
    switch (event.type) {
      case 'payout_embed.session.created':
        return { commands: [], timers: [sessionExpiryTimer.at(event.data.expiresAt, { sessionId: event.data.sessionId })] };
      case 'payout_embed.session.payout_started':
        // Only while the payout is still open: a replay after the outcome sends nothing.
        return state.session?.status === 'claimed' ? commands(new SettleSandboxPayoutMessage(event.data.sessionId, context)) : NO_REACTION;
      case 'payout_embed.session.completed':
        return commands(
          new SettleReservationMessage(event.data.companyId, event.data.sessionId, { kind: 'pay', payoutId: event.data.payoutId, walletEmail: event.data.walletEmail }, context),
        );
      case 'payout_embed.session.failed':
        return commands(new SettleReservationMessage(event.data.companyId, event.data.sessionId, { kind: 'release', reason: 'failed' }, context));
      case 'payout_embed.session.expired':
        return commands(new SettleReservationMessage(event.data.companyId, event.data.sessionId, { kind: 'release', reason: 'expired' }, context));
      case 'payout_embed.session.cancelled':
        return commands(new SettleReservationMessage(event.data.companyId, event.data.sessionId, { kind: 'release', reason: 'cancelled' }, context));
      case 'payout_embed.session.abandoned':
        return commands(new SettleReservationMessage(event.data.companyId, event.data.sessionId, { kind: 'release', reason: 'abandoned' }, context));
      default:
        return NO_REACTION;
    }
  },
};

function eventOf(recorded: RecordedEvent): SessionEvent {
  return { type: recorded.type, data: recorded.data } as SessionEvent;
}
