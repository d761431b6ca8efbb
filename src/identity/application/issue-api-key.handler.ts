import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { newId } from '../../platform/ids/ids';
import type { Scope } from '../domain/principal';
import { apiKeyDecider } from '../domain/api-key.decider';
import { apiKeyStreamId } from '../domain/identity.events';
import { newSecretToken } from './tokens';

/** Shown in lists so a person can tell keys apart: `sk_` and 8 of the key's 43 random characters. */
export const API_KEY_PREFIX_LENGTH = 11;

export interface IssuedApiKey {
  id: string;
  name: string;
  key: string;
  scopes: Scope[];
  createdAt: string;
}

export class IssueApiKeyMessage extends Command<IssuedApiKey> {
  constructor(
    readonly companyId: string,
    readonly userId: string,
    readonly name: string,
    readonly scopes: Scope[],
    readonly correlationId: string,
  ) {
    super();
  }
}

@CommandHandler(IssueApiKeyMessage)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKeyMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: IssueApiKeyMessage): Promise<IssuedApiKey> {
    const context = { actor: `user:${command.userId}`, correlationId: command.correlationId };
    const metadata = commandMetadata(this.clock, context);
    const keyId = newId('key', Date.parse(metadata.now));
    const { token, hash } = newSecretToken('sk');
    const scopes = [...new Set(command.scopes)].sort();
    const result = await this.aggregates.handle(
      apiKeyStreamId(keyId),
      apiKeyDecider,
      {
        type: 'IssueApiKey',
        data: {
          keyId,
          companyId: command.companyId,
          name: command.name,
          scopes,
          keyHash: hash,
          lastFour: token.slice(-4),
          prefix: token.slice(0, API_KEY_PREFIX_LENGTH),
          issuedBy: command.userId,
        },
        metadata,
      },
      context,
    );
    await this.readYourWrites.after(result);
    return { id: keyId, name: command.name, key: token, scopes, createdAt: metadata.now };
  }
}
