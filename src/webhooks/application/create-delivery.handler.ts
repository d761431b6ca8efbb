import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DeliveryBody } from '../domain/webhooks.events';
import { WebhookDeliveries } from './webhook-deliveries';

/** One event to one endpoint: the delivery and its first attempt (at once). Idempotent on the delivery id. */
export class CreateDeliveryMessage {
  constructor(
    readonly deliveryId: string,
    readonly endpointId: string,
    readonly companyId: string,
    readonly body: DeliveryBody,
  ) {}
}

@CommandHandler(CreateDeliveryMessage)
export class CreateDeliveryHandler implements ICommandHandler<CreateDeliveryMessage> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  async execute({ deliveryId, endpointId, companyId, body }: CreateDeliveryMessage): Promise<void> {
    await this.deliveries.create(deliveryId, endpointId, companyId, body);
  }
}
