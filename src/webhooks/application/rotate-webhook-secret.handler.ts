import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { CompanyWebhooks } from './company-webhook-settings';

/** Replaces the company's signing secret; the old one stops verifying at once (no grace period: docs/webhooks.md#2-the-signing-secret). */
export class RotateWebhookSecretMessage extends Command<{ secret: string }> {
  constructor(
    readonly companyId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(RotateWebhookSecretMessage)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretMessage> {
  constructor(private readonly company: CompanyWebhooks) {}

  async execute({ companyId, context }: RotateWebhookSecretMessage): Promise<{ secret: string }> {
    return { secret: await this.company.rotate(companyId, context) };
  }
}
