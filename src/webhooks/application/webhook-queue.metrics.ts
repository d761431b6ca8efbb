import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { MetricsRegistry } from '../../platform/metrics/metrics-registry';
import { WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';

/**
 * `paysplit_webhook_delivery_queue_depth`: deliveries with an attempt waiting to be sent (due now or a
 * scheduled retry); `paysplit_webhook_deliveries_failed`: deliveries that used up their retries (each
 * may need a redelivery once the receiver is fixed). Both read from the delivery store at scrape time.
 */
@Injectable()
export class WebhookQueueMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore,
  ) {}

  onModuleInit(): void {
    this.metrics.addCollector(() => this.collect());
  }

  async collect(): Promise<string[]> {
    const { queued, failed } = await this.deliveries.queueCounts();
    return [
      '# HELP paysplit_webhook_delivery_queue_depth Webhook deliveries with an attempt waiting to be sent (due now or scheduled retries)',
      '# TYPE paysplit_webhook_delivery_queue_depth gauge',
      `paysplit_webhook_delivery_queue_depth ${queued}`,
      '# HELP paysplit_webhook_deliveries_failed Webhook deliveries that used up their retries',
      '# TYPE paysplit_webhook_deliveries_failed gauge',
      `paysplit_webhook_deliveries_failed ${failed}`,
    ];
  }
}
