import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { newId } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { parseWebhookUrl } from '../infrastructure/ssrf-guard';
import { CompanyWebhooks } from './company-webhook-settings';
import { EndpointResponse, WebhookEndpointQueries } from './webhook-endpoint-queries';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * Registers an endpoint (docs/webhooks.md#create, docs/webhooks.md#probation-and-the-test-call): it
 * starts on probation; at most 10 per company. The company's signing secret is created on first use.
 */
export class CreateWebhookEndpointMessage extends Command<EndpointResponse> {
  constructor(
    readonly companyId: string,
    readonly url: string,
    readonly eventTypes: string[],
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreateWebhookEndpointMessage)
export class CreateWebhookEndpointHandler implements ICommandHandler<CreateWebhookEndpointMessage> {
  constructor(
    private readonly company: CompanyWebhooks,
    private readonly endpoints: WebhookEndpointQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ companyId, url, eventTypes, context }: CreateWebhookEndpointMessage): Promise<EndpointResponse> {
    const checked = parseWebhookUrl(url, this.config.webhookAllowPrivateNetworks).toString();
    const metadata = commandMetadata(this.clock, context);
    const endpointId = newId('we', Date.parse(metadata.now));
    await this.company.secret(companyId, context);
    const result = await this.company.run(companyId, { type: 'CreateEndpoint', data: { companyId, endpointId, url: checked, eventTypes }, metadata }, context);
    await this.readYourWrites.after(result);
    return this.endpoints.get(companyId, endpointId);
  }
}
