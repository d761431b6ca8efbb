import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CompanyWebhooks } from './company-webhook-settings';
import { WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** Removes an endpoint and its delivery history. */
export class DeleteWebhookEndpointMessage extends Command<{ id: string; deleted: true }> {
  constructor(
    readonly companyId: string,
    readonly endpointId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(DeleteWebhookEndpointMessage)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpointMessage> {
  constructor(
    private readonly company: CompanyWebhooks,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, endpointId, context }: DeleteWebhookEndpointMessage): Promise<{ id: string; deleted: true }> {
    const result = await this.company.run(companyId, { type: 'DeleteEndpoint', data: { companyId, endpointId }, metadata: commandMetadata(this.clock, context) }, context);
    // After the endpoint is gone no attempt is sent (the worker skips it); a crash before this line leaves
    // rows nobody can list (their endpoint is 404), and deleting the endpoint again removes them.
    await this.deliveries.deleteForEndpoint(endpointId);
    await this.readYourWrites.after(result);
    return { id: endpointId, deleted: true };
  }
}
