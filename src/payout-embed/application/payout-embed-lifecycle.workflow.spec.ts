import { firing, givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { fold } from '../../platform/domain/decider';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { SessionCreatedData, SessionEvent } from '../domain/payout-embed.events';
import { AbandonPayoutEmbedReservationMessage } from './abandon-payout-embed-reservation.handler';
import { ExpirePayoutEmbedSessionMessage } from './expire-payout-embed-session.handler';
import { SettleReservationMessage } from './settle-reservation.handler';
import { SettleSandboxPayoutMessage } from './settle-sandbox-payout.handler';
import { abandonedReservationTimer, payoutEmbedLifecycleWorkflow as workflow, sessionExpiryTimer } from './payout-embed-lifecycle.workflow';

const ref = { sessionId: 'pes_1', companyId: 'co_1', amountCents: '2500', currency: 'USD' };
const data: SessionCreatedData = {
  ...ref,
  recipientEmail: 'ann@example.com',
  recipientName: null,
  description: null,
  idempotencyKey: null,
  requestHash: 'h',
  tokenHash: 't',
  allowedOrigins: [],
  returnUrl: null,
  payoutId: 'po_1',
  createdAt: '2026-03-01T12:00:00.000Z',
  expiresAt: '2026-03-08T12:00:00.000Z',
};
const created: SessionEvent = { type: 'payout_embed.session.created', data };
const claimed: SessionEvent = { type: 'payout_embed.session.claimed', data: { ...ref, claimedAt: 'x' } };
const started: SessionEvent = { type: 'payout_embed.session.payout_started', data: { ...ref, payoutId: 'po_1', walletEmail: 'w@x.example', startedAt: 'x' } };
const completed: SessionEvent = { type: 'payout_embed.session.completed', data: { ...ref, payoutId: 'po_1', walletEmail: 'w@x.example', completedAt: 'x' } };
const stateOf = (...events: SessionEvent[]) => fold(payoutEmbedSessionDecider, events);
const log = (event: SessionEvent) => recorded(event.type, event.data, 'pes-pes_1', 'evt-1');
const context = { actor: 'system:payout-embed', correlationId: 'corr-1', causationId: 'evt-1' };

describe('Payout Embed lifecycle workflow', () => {
  it('sets the expiry timer at expiresAt when a session is created', () =>
    givenWorkflow(workflow, stateOf(created))
      .when(log(created))
      .then({ timers: [sessionExpiryTimer.at('2026-03-08T12:00:00.000Z', { sessionId: 'pes_1' })] }));

  it('expires the session when the timer fires', () =>
    givenWorkflow(workflow, stateOf(created))
      .when(firing(sessionExpiryTimer.at(data.expiresAt, { sessionId: 'pes_1' })))
      .then({ commands: [new ExpirePayoutEmbedSessionMessage('pes_1', { actor: 'system:payout-embed', correlationId: 'payout_embed.expiry:pes_1', causationId: null })] }));

  it('asks the rail for the outcome when the payout starts', () =>
    givenWorkflow(workflow, stateOf(created, claimed, started))
      .when(log(started))
      .then({ commands: [new SettleSandboxPayoutMessage('pes_1', context)] }));

  it('does nothing for a replayed payout start once the outcome is known', () =>
    givenWorkflow(workflow, stateOf(created, claimed, started, completed))
      .when(log(started))
      .thenNothing());

  it('pays the reservation to the wallet on completion', () =>
    givenWorkflow(workflow, stateOf(created, claimed, started, completed))
      .when(log(completed))
      .then({ commands: [new SettleReservationMessage('co_1', 'pes_1', { kind: 'pay', payoutId: 'po_1', walletEmail: 'w@x.example' }, context)] }));

  it.each([
    ['failed', { type: 'payout_embed.session.failed', data: { ...ref, payoutId: 'po_1', walletEmail: 'w+fail@x.example', failureReason: 'r', failedAt: 'x' } }],
    ['expired', { type: 'payout_embed.session.expired', data: { ...ref, expiredAt: 'x' } }],
    ['cancelled', { type: 'payout_embed.session.cancelled', data: { ...ref, cancelledAt: 'x' } }],
  ] as const)('releases the reservation when %s', (reason, event) =>
    givenWorkflow(workflow, stateOf(created))
      .when(log(event as SessionEvent))
      .then({ commands: [new SettleReservationMessage('co_1', 'pes_1', { kind: 'release', reason }, context)] }),
  );

  describe('a reservation whose session was never written', () => {
    const reserved = recorded(
      'company_balance.reserved',
      { companyId: 'co_1', sessionId: 'pes_1', currency: 'USD', amountCents: '2500', requestHash: 'h', reservedAt: '2026-03-01T12:00:00.000Z' },
      'balance-co_1',
      'evt-1',
    );
    const check = firing(abandonedReservationTimer.at('2026-03-01T12:05:00.000Z', { companyId: 'co_1', sessionId: 'pes_1' }));
    const timerContext = { actor: 'system:payout-embed', correlationId: 'payout_embed.abandoned_reservation:pes_1', causationId: null };

    it('is checked 5 minutes after the reservation', () =>
      givenWorkflow(workflow, stateOf())
        .when(reserved)
        .then({ timers: [abandonedReservationTimer.at('2026-03-01T12:05:00.000Z', { companyId: 'co_1', sessionId: 'pes_1' })] }));
    const abandoned: SessionEvent = { type: 'payout_embed.session.abandoned', data: { sessionId: 'pes_1', companyId: 'co_1', abandonedAt: '2026-03-01T12:05:00.000Z' } };
    it('closes the session id on its stream first when no session exists by then (not a direct release: a retried create could still write it)', () =>
      givenWorkflow(workflow, stateOf())
        .when(check)
        .then({ commands: [new AbandonPayoutEmbedReservationMessage('co_1', 'pes_1', timerContext)] }));
    it('is released once the session id is closed', () =>
      givenWorkflow(workflow, stateOf(abandoned))
        .when(log(abandoned))
        .then({ commands: [new SettleReservationMessage('co_1', 'pes_1', { kind: 'release', reason: 'abandoned' }, context)] }));
    it('is left alone when the session exists', () => givenWorkflow(workflow, stateOf(created)).when(check).thenNothing());
    it('does nothing for a timer firing again once the id is closed', () => givenWorkflow(workflow, stateOf(abandoned)).when(check).thenNothing());
  });

  it('ignores codes and claims', () => {
    expect(workflow.handles(log(claimed))).toBe(false);
    expect(workflow.handles(recorded('payout_embed.session.code_sent', {}))).toBe(false);
  });
});
