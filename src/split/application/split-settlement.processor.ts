import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId } from '../../platform/ids/ids';
import { EventProcessor } from '../../platform/projections/projection';
import { Timer } from '../../platform/read-store/read-store.port';
import { TimerWorker } from '../../platform/timers/timer-worker';
import { payoutDecider } from '../../payouts/domain/payout.decider';
import { PAYOUT_STREAM_PREFIX, PayoutEvent, PayoutKind, payoutStreamId } from '../../payouts/domain/payout.events';
import { SplitCommand } from '../domain/split.commands';
import { splitDecider } from '../domain/split.decider';
import { SPLIT_STREAM_PREFIX, SplitEvent, splitStreamId } from '../domain/split.events';

export const ROW_TRANSFER_TIMER = 'split.row_transfer';
export const MARGIN_RELEASE_TIMER = 'split.margin_release';
const DAY_MS = 86_400_000;
/** A failed row transfer is retried after 1 min, 10 min, 1 h, then every 6 h (DESIGN 6). */
const RETRY_DELAYS_MS = [60_000, 600_000, 3_600_000];
const LATER_RETRY_MS = 6 * 3_600_000;

const HANDLED = new Set([
  'split.leg_a.approved',
  'split.funded',
  'split.roster_entry.transfer_started',
  'split.roster_entry.withdrawal_started',
  'payout.completed',
  'payout.failed',
]);

/**
 * The Split's process manager: approved -> leg A payout -> funded -> row transfers (instant now,
 * others at net terms) -> settled, with retries, auto-withdrawal and the margin's net-terms release.
 * Every step is an idempotent command (deterministic payout and timer ids, deciders that ignore repeats).
 */
export class SplitSettlementProcessor implements EventProcessor {
  readonly name = 'split_settlement';
  readonly streams = [SPLIT_STREAM_PREFIX, PAYOUT_STREAM_PREFIX];

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly timers: TimerWorker,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  async process(recorded: RecordedEvent): Promise<void> {
    const context: CommandContext = { actor: 'system:split-settlement', correlationId: recorded.metadata.correlationId, causationId: recorded.id };
    const event = { type: recorded.type, data: recorded.data } as SplitEvent | PayoutEvent;
    switch (event.type) {
      case 'split.leg_a.approved':
        return this.requestLegA(event.data.splitId, context);
      case 'split.funded':
        return this.afterFunding(event.data.splitId, event.data.fundedAt, context);
      case 'split.roster_entry.transfer_started':
        return this.requestPayout(
          { payoutId: event.data.payoutId, kind: 'leg_b_transfer', splitId: event.data.splitId, distributionId: event.data.rosterEntryId },
          event.data.netAmountCents,
          event.data.destination,
          event.data.attempt,
          context,
        );
      case 'split.roster_entry.withdrawal_started':
        return this.requestPayout(
          { payoutId: event.data.payoutId, kind: 'leg_b_withdrawal', splitId: event.data.splitId, distributionId: event.data.rosterEntryId },
          event.data.amountCents,
          event.data.walletEmail,
          1,
          context,
        );
      case 'payout.completed':
        return this.payoutCompleted(event.data.kind, event.data.splitId, event.data.distributionId, event.data.payoutId, context);
      case 'payout.failed':
        if (event.data.kind === 'leg_b_transfer' && event.data.distributionId) {
          return this.transferFailed(event.data.splitId, event.data.distributionId, event.data.payoutId, event.data.reason, context);
        }
        return;
    }
  }

  /** Timer: a row reached net-terms maturity, or a failed transfer is due for another try. */
  onRowTransferTimer = async (timer: Timer): Promise<void> => {
    const { splitId, distributionId, instant } = timer.payload as { splitId: string; distributionId: string; instant: boolean };
    await this.startTransfer(splitId, distributionId, instant, { actor: 'system:split-settlement', correlationId: timer.id });
  };

  onMarginReleaseTimer = async (timer: Timer): Promise<void> => {
    const { splitId } = timer.payload as { splitId: string };
    await this.split(splitId, { type: 'ReleaseMarginAtNetTerms', data: { splitId, now: this.now() } }, { actor: 'system:split-settlement', correlationId: timer.id });
  };

  /** Starts one row's transfer (also the on-demand instant payout); the payout id is fixed per attempt. */
  async startTransfer(splitId: string, distributionId: string, instant: boolean, context: CommandContext) {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    const attempt = state.status === 'none' ? 1 : (state.rows[distributionId]?.attempt ?? 0) + 1;
    const payoutId = deterministicId('po', splitId, distributionId, 'transfer', String(attempt));
    return this.split(splitId, { type: 'StartRowTransfer', data: { splitId, distributionId, instant, earlyPayoutFeeBps: this.config.earlyPayoutFeeBps, payoutId, now: this.now() } }, context);
  }

  private async requestLegA(splitId: string, context: CommandContext): Promise<void> {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    if (state.status === 'none') return;
    const amount = (state.totalAmountCents + state.enterpriseFeeAmountCents).toString();
    await this.requestPayout({ payoutId: state.legAPayoutId, kind: 'leg_a', splitId, distributionId: null }, amount, null, 1, context);
  }

  private async afterFunding(splitId: string, fundedAt: string, context: CommandContext): Promise<void> {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    if (state.status === 'none') return;
    const maturity = new Date(Date.parse(fundedAt) + state.enterpriseNetTermsDays * DAY_MS).toISOString();
    for (const row of state.distributions) {
      if (row.earlyPayoutElected) {
        await this.startTransfer(splitId, row.id, true, context);
      } else {
        await this.timers.schedule({ id: `${ROW_TRANSFER_TIMER}:${row.id}:1`, kind: ROW_TRANSFER_TIMER, dueAt: maturity, payload: { splitId, distributionId: row.id, instant: false } });
      }
    }
    if (state.marginStatus === 'HELD') {
      await this.timers.schedule({ id: `${MARGIN_RELEASE_TIMER}:${splitId}`, kind: MARGIN_RELEASE_TIMER, dueAt: maturity, payload: { splitId } });
    }
  }

  private async payoutCompleted(kind: PayoutKind, splitId: string, distributionId: string | null, payoutId: string, context: CommandContext): Promise<void> {
    if (kind === 'leg_a') {
      await this.split(splitId, { type: 'FundSplit', data: { splitId, earlyPayoutFeeBps: this.config.earlyPayoutFeeBps, now: this.now() } }, context);
      return;
    }
    if (kind !== 'leg_b_transfer' || !distributionId) return;
    await this.split(splitId, { type: 'CompleteRowTransfer', data: { splitId, distributionId, payoutId, now: this.now() } }, context);
    const withdrawalId = deterministicId('po', splitId, distributionId, 'withdrawal');
    await this.split(splitId, { type: 'StartWithdrawal', data: { splitId, distributionId, payoutId: withdrawalId, now: this.now() } }, context);
  }

  private async transferFailed(splitId: string, distributionId: string, payoutId: string, reason: string, context: CommandContext): Promise<void> {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    if (state.status === 'none') return;
    const attempt = state.rows[distributionId]?.attempt ?? 1;
    const nextAttemptAt = new Date(this.clock.now().getTime() + (RETRY_DELAYS_MS[attempt - 1] ?? LATER_RETRY_MS)).toISOString();
    await this.split(splitId, { type: 'FailRowTransfer', data: { splitId, distributionId, payoutId, reason, nextAttemptAt, now: this.now() } }, context);
    const instant = state.rows[distributionId]?.instant ?? false;
    await this.timers.schedule({ id: `${ROW_TRANSFER_TIMER}:${distributionId}:${attempt + 1}`, kind: ROW_TRANSFER_TIMER, dueAt: nextAttemptAt, payload: { splitId, distributionId, instant } });
  }

  private async requestPayout(
    ref: { payoutId: string; kind: PayoutKind; splitId: string; distributionId: string | null },
    amountCents: string,
    destination: string | null,
    attempt: number,
    context: CommandContext,
  ): Promise<void> {
    await this.aggregates.handle(
      payoutStreamId(ref.payoutId),
      payoutDecider,
      { type: 'RequestPayout', data: { ...ref, amountCents, currency: 'USD', destination, attempt, now: this.now() } },
      context,
    );
  }

  private split(splitId: string, command: SplitCommand, context: CommandContext) {
    return this.aggregates.handle(splitStreamId(splitId), splitDecider, command, context);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
