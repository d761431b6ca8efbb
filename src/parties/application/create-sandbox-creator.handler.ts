import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { AccountDirectory } from '../../identity';
import { normalizeEmail } from '../../platform/domain/email';
import { createOnceDecider } from '../../platform/domain/create-once.decider';
import { CreatorAlreadyExistsError } from '../domain/parties.errors';
import { CreatorProfileCreated, creatorStreamId } from '../domain/parties.events';

export interface SandboxCreatorInput {
  fullName: string;
  email: string;
  walletEmail: string | null;
  walletVerified: boolean;
  active: boolean;
}

const creatorDecider = createOnceDecider<CreatorProfileCreated>();

export interface SandboxCreatorCreated {
  userId: string;
  creatorProfileId: string;
  paymentProfileId: string;
}

/** Sandbox: a person with an account, a creator profile, a payment profile and optionally a wallet. */
export class CreateSandboxCreatorMessage extends Command<SandboxCreatorCreated> {
  constructor(
    readonly input: SandboxCreatorInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreateSandboxCreatorMessage)
export class CreateSandboxCreatorHandler implements ICommandHandler<CreateSandboxCreatorMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly accounts: AccountDirectory,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: CreateSandboxCreatorMessage): Promise<SandboxCreatorCreated> {
    const account = await this.accounts.findOrProvision(input.email, input.fullName, context);
    const metadata = commandMetadata(this.clock, context);
    const event: CreatorProfileCreated = {
      type: 'creator_profile.created',
      data: {
        creatorProfileId: newId('crp', Date.parse(metadata.now)),
        paymentProfileId: newId('cpp', Date.parse(metadata.now)),
        userId: account.userId,
        companyId: account.companyId,
        fullName: input.fullName,
        email: normalizeEmail(input.email),
        active: input.active,
        wallet: input.walletEmail ? { email: normalizeEmail(input.walletEmail), active: true, verified: input.walletVerified } : null,
        createdAt: metadata.now,
      },
    };
    const result = await this.aggregates.handle(creatorStreamId(account.userId), creatorDecider, { type: 'Create', event, metadata }, context);
    if (result.events.length === 0) throw new CreatorAlreadyExistsError();
    await this.readYourWrites.after(account.written, result);
    return { userId: account.userId, creatorProfileId: event.data.creatorProfileId, paymentProfileId: event.data.paymentProfileId };
  }
}
