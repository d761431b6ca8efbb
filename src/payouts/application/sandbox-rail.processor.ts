import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { Clock } from '../../platform/clock/clock';
import { EventProcessor } from '../../platform/projections/projection';
import { payoutDecider } from '../domain/payout.decider';
import { PAYOUT_STREAM_PREFIX, PayoutRequested, payoutStreamId } from '../domain/payout.events';
import { sandboxRailOutcome } from '../domain/sandbox-rail';

/** Executes requested payouts on the sandbox rail: processing, then completed or failed. */
export class SandboxRailProcessor implements EventProcessor {
  readonly name = 'payout_rail';
  readonly streams = [PAYOUT_STREAM_PREFIX];

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly clock: Clock,
  ) {}

  handles(event: RecordedEvent): boolean {
    return event.type === 'payout.requested';
  }

  async process(event: RecordedEvent): Promise<void> {
    const request = (event as unknown as PayoutRequested).data;
    const stream = payoutStreamId(request.payoutId);
    const context = { actor: 'system:sandbox-rail', correlationId: event.metadata.correlationId, causationId: event.id };
    const now = () => this.clock.now().toISOString();
    await this.aggregates.handle(stream, payoutDecider, { type: 'StartProcessing', data: { now: now() } }, context);
    // A merchant payout credits the merchant company's balance on the platform: the sandbox rail always settles it.
    const outcome = request.kind === 'merchant' ? ({ ok: true } as const) : sandboxRailOutcome(request.destination, request.attempt);
    const command = outcome.ok
      ? ({ type: 'CompletePayout', data: { now: now() } } as const)
      : ({ type: 'FailPayout', data: { reason: outcome.reason, now: now() } } as const);
    await this.aggregates.handle(stream, payoutDecider, command, context);
  }
}
