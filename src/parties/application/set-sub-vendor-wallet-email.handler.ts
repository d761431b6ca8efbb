import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { subVendorStreamId } from '../domain/parties.events';
import { subVendorDecider } from '../domain/sub-vendor.decider';
import { SubVendorDoc } from '../projections/parties-read-model.projection';
import { toDoc } from './sub-vendor-registry';

/**
 * Adds or changes a SubVendor's wallet email
 * (docs/api.md#patch-apicommerceintegrationsub-vendorsid-add-or-change-a-sub-vendors-wallet-email): from
 * then on a roster row for it may elect instant payout. Own roster only (else 404); the same email
 * again appends nothing. Rows of Splits created before keep the wallet email they were created with.
 */
export class SetSubVendorWalletEmailMessage extends Command<SubVendorDoc> {
  constructor(
    readonly smeCompanyId: string,
    readonly subVendorId: string,
    readonly walletEmail: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SetSubVendorWalletEmailMessage)
export class SetSubVendorWalletEmailHandler implements ICommandHandler<SetSubVendorWalletEmailMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ smeCompanyId, subVendorId, walletEmail, context }: SetSubVendorWalletEmailMessage): Promise<SubVendorDoc> {
    const result = await this.aggregates.handle(
      subVendorStreamId(subVendorId),
      subVendorDecider,
      { type: 'SetWalletEmail', data: { subVendorId, smeCompanyId, walletEmail }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return toDoc(result.state.subVendor!);
  }
}
