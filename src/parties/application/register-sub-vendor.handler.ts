import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SubVendorDoc } from '../projections/parties-read-model.projection';
import { SubVendorInput, SubVendorRegistry } from './sub-vendor-registry';

/**
 * Adds a vendor to the SME's roster
 * (docs/api.md#post-apicommerceintegrationsub-vendors-add-a-vendor-to-the-smes-roster). Idempotent per (SME, email):
 * `created` is false when the SubVendor already existed and comes back as is.
 */
export class RegisterSubVendorMessage extends Command<{ subVendor: SubVendorDoc; created: boolean }> {
  constructor(
    readonly smeCompanyId: string,
    readonly input: SubVendorInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(RegisterSubVendorMessage)
export class RegisterSubVendorHandler implements ICommandHandler<RegisterSubVendorMessage> {
  constructor(
    private readonly subVendors: SubVendorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ smeCompanyId, input, context }: RegisterSubVendorMessage): Promise<{ subVendor: SubVendorDoc; created: boolean }> {
    const { subVendor, created, written } = await this.subVendors.register(smeCompanyId, input, context);
    await this.readYourWrites.after(...written);
    return { subVendor, created };
  }
}
