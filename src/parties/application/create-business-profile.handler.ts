import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { normalizeEmail } from '../../platform/domain/email';
import { createOnceDecider } from '../../platform/domain/create-once.decider';
import { BusinessProfileCreated, businessProfileStreamId } from '../domain/parties.events';
import { BusinessProfileDoc } from '../projections/parties-read-model.projection';

const businessProfileDecider = createOnceDecider<BusinessProfileCreated>();

/** An accounts-payable contact of the caller's company (what Splits name as apContactBusinessProfileId). */
export class CreateBusinessProfileMessage extends Command<BusinessProfileDoc> {
  constructor(
    readonly companyId: string,
    readonly displayName: string,
    readonly email: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreateBusinessProfileMessage)
export class CreateBusinessProfileHandler implements ICommandHandler<CreateBusinessProfileMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, displayName, email, context }: CreateBusinessProfileMessage): Promise<BusinessProfileDoc> {
    const metadata = commandMetadata(this.clock, context);
    const businessProfileId = newId('bp', Date.parse(metadata.now));
    const event: BusinessProfileCreated = {
      type: 'business_profile.created',
      data: { businessProfileId, companyId, displayName, email: normalizeEmail(email), createdAt: metadata.now },
    };
    const result = await this.aggregates.handle(businessProfileStreamId(businessProfileId), businessProfileDecider, { type: 'Create', event, metadata }, context);
    await this.readYourWrites.after(result);
    const { businessProfileId: id, ...rest } = event.data;
    return { id, ...rest };
  }
}
