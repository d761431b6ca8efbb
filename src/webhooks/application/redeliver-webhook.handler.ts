import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WebhookDeliveries } from './webhook-deliveries';
import { present, WebhookDeliveriesQuery, WebhookDeliveryResponse } from './webhook-deliveries.query';

/** Sends one of the company's deliveries again now, with a fresh retry schedule (same delivery id). */
export class RedeliverWebhookMessage extends Command<WebhookDeliveryResponse> {
  constructor(
    readonly companyId: string,
    readonly deliveryId: string,
    /** Who asked, as recorded on the delivery. */
    readonly requestedBy: string,
  ) {
    super();
  }
}

@CommandHandler(RedeliverWebhookMessage)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhookMessage> {
  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly query: WebhookDeliveriesQuery,
  ) {}

  async execute({ companyId, deliveryId, requestedBy }: RedeliverWebhookMessage): Promise<WebhookDeliveryResponse> {
    await this.query.record(deliveryId, companyId);
    const restarted = await this.deliveries.redeliver(deliveryId, requestedBy);
    // Null only if the endpoint was deleted (with its deliveries) in between.
    if (!restarted) return this.query.get(deliveryId, companyId);
    return present(restarted);
  }
}
