import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { contractorOwnWallet, subVendor as subVendorOf } from '../../parties';
import { SplitStream } from './split-stream';

/**
 * A row's transfer payout completed: the row settles (and the Split with its last row), then it is
 * offered to the auto-withdrawal (the decider starts one only for a row that elected it, to a wallet).
 * Both decisions are appended together: one read and one append instead of two each.
 */
export class CompleteRowTransferMessage {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly payoutId: string,
    readonly withdrawalPayoutId: string,
    readonly context: CommandContext,
    /**
     * Issue 29: the SubVendor of a row that elected auto-withdrawal, whose contractor's own verified wallet
     * (verified or changed after the Split was created) the withdrawal goes to; null for other rows.
     */
    readonly autoWithdrawSubVendorId: string | null = null,
  ) {}
}

@CommandHandler(CompleteRowTransferMessage)
export class CompleteRowTransferHandler implements ICommandHandler<CompleteRowTransferMessage> {
  constructor(
    private readonly split: SplitStream,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async execute({ splitId, distributionId, payoutId, withdrawalPayoutId, context, autoWithdrawSubVendorId }: CompleteRowTransferMessage): Promise<void> {
    const metadata = this.split.metadata(context);
    const walletEmail = await this.ownWallet(autoWithdrawSubVendorId);
    await this.split.handleAll(
      splitId,
      [
        { type: 'CompleteRowTransfer', data: { splitId, distributionId, payoutId }, metadata },
        { type: 'StartWithdrawal', data: { splitId, distributionId, payoutId: withdrawalPayoutId, ...(walletEmail ? { walletEmail } : {}) }, metadata },
      ],
      context,
    );
  }

  /** Two keyed reads, only for a SubVendor row that elected auto-withdrawal: its userId, then that person's own wallet. */
  private async ownWallet(subVendorId: string | null): Promise<string | null> {
    if (!subVendorId) return null;
    const subVendor = await subVendorOf(this.documents, subVendorId);
    return subVendor ? contractorOwnWallet(this.documents, subVendor) : null;
  }
}
