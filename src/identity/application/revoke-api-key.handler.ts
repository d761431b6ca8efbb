import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CredentialResolverService } from './credential-resolver.service';
import { apiKeyDecider } from '../domain/api-key.decider';
import { apiKeyStreamId } from '../domain/identity.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export class RevokeApiKeyMessage extends Command<void> {
  constructor(
    readonly companyId: string,
    readonly userId: string,
    readonly keyId: string,
    readonly correlationId: string,
  ) {
    super();
  }
}

@CommandHandler(RevokeApiKeyMessage)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    private readonly credentials: CredentialResolverService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: RevokeApiKeyMessage): Promise<void> {
    const context = { actor: `user:${command.userId}`, correlationId: command.correlationId };
    const result = await this.aggregates.handle(
      apiKeyStreamId(command.keyId),
      apiKeyDecider,
      { type: 'RevokeApiKey', data: { keyId: command.keyId, companyId: command.companyId }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    // Clear the cached key now and again once the read model shows the revocation (or the wait gave
    // up), so no lookup made in between keeps it cached.
    this.credentials.forgetApiKey(command.keyId);
    try {
      await this.readYourWrites.after(result);
    } finally {
      this.credentials.forgetApiKey(command.keyId);
    }
  }
}
