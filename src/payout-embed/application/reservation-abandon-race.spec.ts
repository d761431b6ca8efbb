import { firing, recorded } from '../../../test/support/workflow-given-when-then';
import { DomainEvent, fold } from '../../platform/domain/decider';
import { DomainError } from '../../platform/domain/domain-error';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { BalanceEvent, SessionCreatedData, SessionEvent } from '../domain/payout-embed.events';
import { abandonedReservationTimer, payoutEmbedLifecycleWorkflow as workflow } from './payout-embed-lifecycle.workflow';
import { AbandonPayoutEmbedReservationMessage } from './abandon-payout-embed-reservation.handler';
import { SettleReservationMessage } from './settle-reservation.handler';

/**
 * Issue 23 item 5, the interleaving itself: a create reserved and died before writing its session; the
 * client retries with the same idempotency key; the retry's Reserve finds the reservation held (decides
 * nothing), then the abandoned-reservation timer fires, then the retry writes its session. Both streams
 * are driven through their real deciders and the lifecycle workflow's real reactions (the handlers are
 * one `aggregates.handle` each: the command names the stream and the decider command).
 */
const NOW = '2026-03-01T12:05:00.000Z';
const session: SessionCreatedData = {
  sessionId: 'pes_1',
  companyId: 'co_1',
  amountCents: '2500',
  currency: 'USD',
  recipientEmail: 'ann@example.com',
  recipientName: null,
  description: null,
  idempotencyKey: 'k1',
  requestHash: 'h',
  tokenHash: 't',
  allowedOrigins: [],
  returnUrl: null,
  payoutId: 'po_1',
  createdAt: NOW,
  expiresAt: '2026-03-08T12:05:00.000Z',
};

class World {
  balance: BalanceEvent[] = [
    { type: 'company_balance.topped_up', data: { companyId: 'co_1', topUpId: 't1', currency: 'USD', amountCents: '2500', toppedUpAt: NOW } },
    { type: 'company_balance.reserved', data: { companyId: 'co_1', sessionId: 'pes_1', currency: 'USD', amountCents: '2500', requestHash: 'h', reservedAt: NOW } },
  ];
  session: SessionEvent[] = [];

  balanceState = () => fold(companyBalanceDecider, this.balance);
  sessionState = () => fold(payoutEmbedSessionDecider, this.session);

  /** Appends what a decider decides on one stream, then lets the lifecycle workflow react to it, as the log would. */
  private appendSession(events: SessionEvent[]): void {
    this.session.push(...events);
    for (const event of events) this.run(workflow.react({ kind: 'event', event: recorded(event.type, event.data, 'pes-pes_1'), now: NOW }, this.sessionState()).commands);
  }

  run(commands: readonly unknown[]): void {
    for (const command of commands) {
      if (command instanceof SettleReservationMessage) {
        const o = command.outcome;
        const decided = companyBalanceDecider.decide(
          o.kind === 'pay'
            ? { type: 'Pay', data: { sessionId: command.sessionId, payoutId: o.payoutId, walletEmail: o.walletEmail }, metadata: { now: NOW, actor: 'system' } }
            : { type: 'Release', data: { sessionId: command.sessionId, reason: o.reason }, metadata: { now: NOW, actor: 'system' } },
          this.balanceState(),
        );
        this.balance.push(...decided);
      } else if (command instanceof AbandonPayoutEmbedReservationMessage) {
        this.appendSession(
          payoutEmbedSessionDecider.decide(
            { type: 'Abandon', data: { sessionId: command.sessionId, companyId: command.companyId }, metadata: { now: NOW, actor: 'system' } },
            this.sessionState(),
          ),
        );
      } else {
        throw new Error(`unexpected command ${(command as object).constructor.name}`);
      }
    }
  }

  retriedReserve(): DomainEvent[] {
    return companyBalanceDecider.decide(
      { type: 'Reserve', data: { companyId: 'co_1', sessionId: 'pes_1', currency: 'USD', amountCents: '2500', requestHash: 'h' }, metadata: { now: NOW, actor: 'system' } },
      this.balanceState(),
    );
  }

  timerFires(): void {
    const timer = firing(abandonedReservationTimer.at(NOW, { companyId: 'co_1', sessionId: 'pes_1' }));
    this.run(workflow.react({ kind: 'timer', timer, now: NOW }, this.sessionState()).commands);
  }

  retriedCreateSession(): void {
    this.appendSession(payoutEmbedSessionDecider.decide({ type: 'CreateSession', data: session, metadata: { now: NOW, actor: 'system' } }, this.sessionState()));
  }

  /** The invariant: a session that exists and has not ended holds a reserved reservation. */
  assertNoLiveSessionOnReleasedReservation(): void {
    const live = this.sessionState().session;
    if (live && (live.status === 'created' || live.status === 'claimed')) expect(this.balanceState().reservations['pes_1']?.status).toBe('reserved');
  }
}

const codeOf = (run: () => void): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
};

describe('Payout Embed: the abandoned-reservation timer racing a create retried with the same key', () => {
  it('timer fires between the retry reserving and writing its session: the session is refused, the reservation released, no session is live', () => {
    const world = new World();
    expect(world.retriedReserve()).toEqual([]); // the reservation of the first attempt is still held
    world.timerFires();
    expect(world.balanceState().reservations['pes_1']?.status).toBe('released');
    expect(codeOf(() => world.retriedCreateSession())).toBe('PAYOUT_EMBED_RESERVATION_ABANDONED');
    expect(world.sessionState().session).toBeNull();
    world.assertNoLiveSessionOnReleasedReservation();
    expect(world.balanceState().available).toEqual({ USD: 2500n });
  });

  it('the retry writes its session first: the timer then releases nothing and the session keeps its reservation', () => {
    const world = new World();
    world.retriedCreateSession();
    world.timerFires();
    expect(world.sessionState().session?.status).toBe('created');
    expect(world.balanceState().reservations['pes_1']?.status).toBe('reserved');
    world.assertNoLiveSessionOnReleasedReservation();
  });

  it('settling a released reservation as paid is refused with PAYOUT_EMBED_RESERVATION_NOT_HELD', () => {
    const world = new World();
    world.timerFires();
    expect(
      codeOf(() =>
        world.run([
          new SettleReservationMessage('co_1', 'pes_1', { kind: 'pay', payoutId: 'po_1', walletEmail: 'w@x.example' }, { actor: 't', correlationId: 'c', causationId: null }),
        ]),
      ),
    ).toBe('PAYOUT_EMBED_RESERVATION_NOT_HELD');
    expect(world.balanceState().reservations['pes_1']?.status).toBe('released');
  });
});
