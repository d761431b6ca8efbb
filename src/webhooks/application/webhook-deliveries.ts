import { Inject, Injectable } from '@nestjs/common';
import { Written } from '../../platform/projections/read-your-writes';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { TimerWorker } from '../../platform/timers/timer-worker';
import { deliveryDecider } from '../domain/webhook-delivery.decider';
import { DeliveryBody, deliveryStreamId } from '../domain/webhooks.events';
import { AttemptTimerPayload, webhookAttemptTimer } from './webhook.timers';

export type { AttemptTimerPayload } from './webhook.timers';
/** Timer ids are deterministic per (delivery, series, attempt): scheduling twice changes nothing. */
/** The attempt timer's id: the delivery, series and attempt (the endpoint only partitions the worker's pool). */
export const attemptTimerId = (p: Omit<AttemptTimerPayload, 'endpointId'>) => webhookAttemptTimer.id({ ...p, endpointId: '' });

/** Creates deliveries and schedules their attempts as durable timers. */
@Injectable()
export class WebhookDeliveries {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly timers: TimerWorker,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Idempotent on deliveryId: a reprocessed event never makes a second delivery or a second first attempt. */
  async create(
    deliveryId: string,
    endpointId: string,
    companyId: string,
    body: DeliveryBody,
    context: CommandContext,
    options: { scheduleFirstAttempt: boolean } = { scheduleFirstAttempt: true },
  ): Promise<void> {
    const now = this.clock.now().toISOString();
    const { state } = await this.aggregates.handle(
      deliveryStreamId(deliveryId),
      deliveryDecider,
      { type: 'CreateDelivery', data: { deliveryId, endpointId, companyId, body, now } },
      context,
    );
    if (options.scheduleFirstAttempt && state.status === 'pending' && state.lastAttempt === 0) {
      await this.scheduleAttempt({ deliveryId, seriesStart: 1, attempt: 1, endpointId }, state.nextAttemptAt ?? now);
    }
  }

  /** Sends again from a fresh retry series, starting now. */
  async redeliver(deliveryId: string, requestedBy: string, context: CommandContext): Promise<Written> {
    const result = await this.aggregates.handle(
      deliveryStreamId(deliveryId),
      deliveryDecider,
      { type: 'RequestRedelivery', data: { requestedBy, now: this.clock.now().toISOString() } },
      context,
    );
    const state = result.state;
    if (state.status === 'pending' && result.events.length > 0) {
      await this.scheduleAttempt({ deliveryId, seriesStart: state.seriesStart, attempt: state.seriesStart, endpointId: state.endpointId }, state.nextAttemptAt!);
    }
    return result;
  }

  async scheduleAttempt(payload: AttemptTimerPayload, dueAt: string): Promise<void> {
    await this.timers.schedule(webhookAttemptTimer.at(dueAt, payload));
  }
}
