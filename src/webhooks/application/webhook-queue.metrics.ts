import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { MetricsRegistry } from '../../platform/metrics/metrics-registry';
import { TIMER_STORE, TimerStore } from '../../platform/read-store/timer-store.port';
import { webhookAttemptTimer } from './webhook.timers';

/**
 * `paysplit_webhook_delivery_queue_depth`: delivery attempts waiting to be sent (due now or scheduled
 * as a retry), read from the durable timers at scrape time; `paysplit_webhook_deliveries_parked` counts
 * the attempts the timer worker gave up on (each needs a look).
 */
@Injectable()
export class WebhookQueueMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(TIMER_STORE) private readonly timers: TimerStore,
  ) {}

  onModuleInit(): void {
    this.metrics.addCollector(() => this.collect());
  }

  async collect(): Promise<string[]> {
    const attempts = (await this.timers.timerCounts()).filter((count) => count.kind === webhookAttemptTimer.kind);
    const count = (status: string) => attempts.filter((a) => a.status === status).reduce((sum, a) => sum + a.count, 0);
    return [
      '# HELP paysplit_webhook_delivery_queue_depth Webhook delivery attempts waiting to be sent (due now or scheduled retries)',
      '# TYPE paysplit_webhook_delivery_queue_depth gauge',
      `paysplit_webhook_delivery_queue_depth ${count('scheduled')}`,
      '# HELP paysplit_webhook_deliveries_parked Webhook delivery attempts the timer worker parked after repeated failures',
      '# TYPE paysplit_webhook_deliveries_parked gauge',
      `paysplit_webhook_deliveries_parked ${count('parked')}`,
    ];
  }
}
