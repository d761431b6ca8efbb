import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CompanyWebhooks } from './company-webhook-settings';

/** Removes an endpoint and its delivery history. */
export class DeleteWebhookEndpointCommand extends Command<{ id: string; deleted: true }> {
  constructor(
    readonly companyId: string,
    readonly endpointId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(DeleteWebhookEndpointCommand)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpointCommand> {
  constructor(
    private readonly company: CompanyWebhooks,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, endpointId, context }: DeleteWebhookEndpointCommand): Promise<{ id: string; deleted: true }> {
    const result = await this.company.run(companyId, { type: 'DeleteEndpoint', data: { companyId, endpointId, now: this.clock.now().toISOString() } }, context);
    await this.readYourWrites.after(result);
    return { id: endpointId, deleted: true };
  }
}
