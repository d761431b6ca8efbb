import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { FiresTimers, onTimer, TimerHandlers, TimerRegistration } from '../../platform/background.decorators';
import { LOGGER } from '../../platform/platform.tokens';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { SecretBox } from '../../platform/crypto/secret-box';
import { AppLogger } from '../../platform/logging/app-logger';
import { canonicalJson } from '../domain/canonical-json';
import { companyWebhooksDecider } from '../domain/company-webhooks.decider';
import { deliveryDecider, DeliveryState } from '../domain/webhook-delivery.decider';
import { PROBATION_RETRIES, RETRY_DELAYS_SECONDS } from '../domain/webhook-event-types';
import { signWebhook, webhookRequestHeaders } from '../domain/webhook-signature';
import { companyWebhooksStreamId, deliveryStreamId } from '../domain/webhooks.events';
import { WebhookDeliveries } from './webhook-deliveries';
import { AttemptTimerPayload, webhookAttemptTimer } from './webhook.timers';
import { SECRET_BOX, WEBHOOK_POSTER } from './webhook.tokens';

export interface WebhookPoster {
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ kind: 'response'; status: number; latencyMs: number } | { kind: 'error'; error: string; latencyMs: number }>;
}

export interface AttemptOutcome {
  deliveryId: string;
  attempt: number;
  succeeded: boolean;
  responseStatus: number | null;
  error: string | null;
  skipped?: 'not_due' | 'endpoint_gone' | 'endpoint_disabled';
}

const MAX_IN_FLIGHT_PER_ENDPOINT = 32;

/**
 * Makes one attempt of one delivery: signs the canonical body with the company's current secret,
 * POSTs it, records the attempt, schedules the next one by the retry schedule (shorter on probation)
 * and ends probation on the first 2xx. Runs as a timer handler, so a claimed attempt is sent by one
 * worker; after a crash the lease expires and the same attempt (same delivery id) is sent again.
 */
@Injectable()
@TimerHandlers()
export class WebhookAttemptHandler implements FiresTimers {
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly deliveries: WebhookDeliveries,
    @Inject(WEBHOOK_POSTER) private readonly http: WebhookPoster,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  readonly timerRegistrations: readonly TimerRegistration[] = [onTimer(webhookAttemptTimer, async (payload) => void (await this.attempt(payload)))];

  async attempt(payload: AttemptTimerPayload): Promise<AttemptOutcome> {
    const { deliveryId, attempt } = payload;
    const delivery = (await this.aggregates.load(deliveryStreamId(deliveryId), deliveryDecider)).state;
    const base = { deliveryId, attempt, succeeded: false, responseStatus: null, error: null };
    if (delivery.status !== 'none' && delivery.lastAttempt === attempt) {
      // This attempt was recorded, but we may have crashed before its follow-ups: redo them (idempotent).
      await this.followUp(delivery, attempt, delivery.status === 'succeeded', true);
      return { ...base, skipped: 'not_due' };
    }
    if (delivery.status !== 'pending' || delivery.lastAttempt + 1 !== attempt) return { ...base, skipped: 'not_due' };
    const company = (await this.aggregates.load(companyWebhooksStreamId(delivery.companyId), companyWebhooksDecider)).state;
    const endpoint = company.endpoints.get(delivery.endpointId);
    if (!endpoint) return { ...base, skipped: 'endpoint_gone' };
    if (!endpoint.enabled) return { ...base, skipped: 'endpoint_disabled' };
    if (!company.sealedSecret) throw new Error(`company ${delivery.companyId} has endpoints but no signing secret`);

    const body = canonicalJson(delivery.body);
    const now = this.clock.now();
    // Receivers check the timestamp against their own clock: it is real time even in the sandbox, whose
    // time shows in the body's createdAt and in the recorded attempt (docs/webhooks.md#headers).
    const timestamp = Math.floor(this.realClock.now().getTime() / 1000);
    const signature = signWebhook(this.secrets.open(company.sealedSecret), timestamp, body);
    const headers = webhookRequestHeaders(delivery.body.type, deliveryId, String(timestamp), signature) as Record<string, string>;
    const result = await this.limited(delivery.endpointId, () => this.http.post(endpoint.url, headers, body));
    const succeeded = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const responseStatus = result.kind === 'response' ? result.status : null;
    const error = result.kind === 'error' ? result.error : succeeded ? null : `HTTP ${responseStatus}`;

    const context = { actor: 'system:webhook-worker', correlationId: delivery.body.id, causationId: null };
    const recorded = await this.aggregates.handle(
      deliveryStreamId(deliveryId),
      deliveryDecider,
      {
        type: 'RecordAttempt',
        data: {
          attempt,
          succeeded,
          responseStatus,
          latencyMs: Math.round(result.latencyMs),
          error,
          attemptedAt: now.toISOString(),
          signedAt: String(timestamp),
          signature,
          retriesAllowed: endpoint.onProbation ? PROBATION_RETRIES : RETRY_DELAYS_SECONDS.length,
        },
      },
      context,
    );
    await this.followUp(recorded.state, attempt, succeeded, endpoint.onProbation);
    const next = recorded.state.status === 'pending' ? recorded.state.nextAttemptAt : null;
    if (!succeeded) this.logger.info({ deliveryId, attempt, responseStatus, error, nextAttemptAt: next }, 'webhook attempt failed');
    return { deliveryId, attempt, succeeded, responseStatus, error };
  }

  /** After an attempt is recorded: schedule the next one, or end probation on a success. Both are idempotent. */
  private async followUp(delivery: DeliveryState, attempt: number, succeeded: boolean, mayBeOnProbation: boolean): Promise<void> {
    if (delivery.status === 'none') return;
    if (delivery.status === 'pending' && delivery.nextAttemptAt) {
      await this.deliveries.scheduleAttempt(
        { deliveryId: delivery.deliveryId, seriesStart: delivery.seriesStart, attempt: attempt + 1, endpointId: delivery.endpointId },
        delivery.nextAttemptAt,
      );
    }
    if (succeeded && mayBeOnProbation) {
      const context = { actor: 'system:webhook-worker', correlationId: delivery.body.id, causationId: null };
      await this.aggregates.handle(
        companyWebhooksStreamId(delivery.companyId),
        companyWebhooksDecider,
        { type: 'GraduateEndpoint', data: { companyId: delivery.companyId, endpointId: delivery.endpointId, now: this.clock.now().toISOString() } },
        context,
      );
    }
  }

  /** At most MAX_IN_FLIGHT_PER_ENDPOINT concurrent requests to one endpoint, so one slow receiver cannot take every lane. */
  private async limited<T>(endpointId: string, send: () => Promise<T>): Promise<T> {
    while ((this.inFlight.get(endpointId) ?? 0) >= MAX_IN_FLIGHT_PER_ENDPOINT) {
      await new Promise<void>((resolve) => this.waiting.set(endpointId, [...(this.waiting.get(endpointId) ?? []), resolve]));
    }
    this.inFlight.set(endpointId, (this.inFlight.get(endpointId) ?? 0) + 1);
    try {
      return await send();
    } finally {
      this.inFlight.set(endpointId, this.inFlight.get(endpointId)! - 1);
      const queue = this.waiting.get(endpointId);
      queue?.shift()?.();
    }
  }
}
