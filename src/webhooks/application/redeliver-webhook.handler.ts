import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookDeliveriesQuery, WebhookDeliveryResponse } from './webhook-deliveries.query';

/** Sends one of the company's deliveries again now, with a fresh retry schedule (same delivery id). */
export class RedeliverWebhookCommand extends Command<WebhookDeliveryResponse> {
  constructor(
    readonly companyId: string,
    readonly deliveryId: string,
    /** Who asked, as recorded on the delivery. */
    readonly requestedBy: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(RedeliverWebhookCommand)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhookCommand> {
  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly query: WebhookDeliveriesQuery,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ companyId, deliveryId, requestedBy, context }: RedeliverWebhookCommand): Promise<WebhookDeliveryResponse> {
    await this.query.get(deliveryId, companyId);
    await this.readYourWrites.after(await this.deliveries.redeliver(deliveryId, requestedBy, context));
    return this.query.get(deliveryId, companyId);
  }
}
