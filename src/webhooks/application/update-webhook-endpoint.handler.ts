import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { parseWebhookUrl } from '../infrastructure/ssrf-guard';
import { CompanyWebhooks } from './company-webhook-settings';
import { EndpointResponse, WebhookEndpointQueries } from './webhook-endpoint-queries';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export interface WebhookEndpointChanges {
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
}

/** Disables or re-enables an endpoint, or changes its subscribed event types or URL. */
export class UpdateWebhookEndpointMessage extends Command<EndpointResponse> {
  constructor(
    readonly companyId: string,
    readonly endpointId: string,
    readonly changes: WebhookEndpointChanges,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(UpdateWebhookEndpointMessage)
export class UpdateWebhookEndpointHandler implements ICommandHandler<UpdateWebhookEndpointMessage> {
  constructor(
    private readonly company: CompanyWebhooks,
    private readonly endpoints: WebhookEndpointQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ companyId, endpointId, changes, context }: UpdateWebhookEndpointMessage): Promise<EndpointResponse> {
    const url = changes.url === undefined ? undefined : parseWebhookUrl(changes.url, this.config.webhookAllowPrivateNetworks).toString();
    const result = await this.company.run(
      companyId,
      { type: 'UpdateEndpoint', data: { companyId, endpointId, ...changes, url }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return this.endpoints.get(companyId, endpointId);
  }
}
