import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Outbox } from '../../identity';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId } from '../../platform/ids/ids';
import { normalizeEmail } from '../../platform/domain/email';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { contractorWalletDecider } from '../domain/contractor-wallet.decider';
import { contractorWalletStreamId } from '../domain/contractor-wallet.events';
import { WalletCodes } from './wallet-codes';

export interface PendingWalletView {
  walletEmail: string;
  codeExpiresAt: string;
}

export class SendWalletCodeMessage extends Command<PendingWalletView> {
  constructor(
    readonly userId: string,
    readonly walletEmail: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * POST /api/commerce/me/wallet: a code to the wallet email (the sandbox outbox), valid 10 minutes, as the
 * Payout Embed claim code is sent. The message is written after the event, so a refused request sends nothing.
 */
@CommandHandler(SendWalletCodeMessage)
export class SendWalletCodeHandler implements ICommandHandler<SendWalletCodeMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly codes: WalletCodes,
    private readonly outbox: Outbox,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, walletEmail: given, context }: SendWalletCodeMessage): Promise<PendingWalletView> {
    const walletEmail = normalizeEmail(given);
    const metadata = commandMetadata(this.clock, context);
    const code = this.codes.fresh();
    const result = await this.aggregates.handle(
      contractorWalletStreamId(userId),
      contractorWalletDecider,
      { type: 'SendCode', data: { userId, walletEmail, codeHash: this.codes.hash(userId, walletEmail, code) }, metadata },
      context,
    );
    await this.outbox.send({
      id: newId('evt', Date.parse(metadata.now)),
      to: walletEmail,
      subject: 'Your code to add this wallet on Paysplit',
      body: `Someone asked Paysplit to pay their earnings to this wallet (${walletEmail}). Your code is ${code}. It works for 10 minutes. If you did not ask for it, ignore this email: nothing changes without the code.`,
      link: '',
      sentAt: metadata.now,
    });
    await this.readYourWrites.after(result);
    return { walletEmail, codeExpiresAt: result.state.pending!.codeExpiresAt };
  }
}
