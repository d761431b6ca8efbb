import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { requestFingerprint } from '../../platform/domain/idempotency';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { splitExists } from '../domain/split.state';
import { SplitStream } from './split-stream';

/** A reversal as the API answers it (docs/api.md#row-reversals). */
export interface ReversalView {
  id: string;
  splitId: string;
  distributionId: string;
  amountCents: string;
  feeRefundedCents: string;
  currency: string;
  reason: string;
  createdAt: string;
}

export interface ReversalRequest {
  amountCents: string;
  reason: string;
  refundFee: boolean;
  idempotencyKey: string;
}

/** The SME takes back all or part of a transferred row (issue 26 item 3). */
export class ReverseDistributionMessage extends Command<{ reversal: ReversalView; replayed: boolean }> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly distributionId: string,
    readonly request: ReversalRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * Decided on the Split's stream (never more than the row's net less earlier reversals); the ledger then
 * takes the money from the contractor's service balance, or records what it already withdrew as its
 * receivable (docs/money.md#row-reversals). The reversal id derives from the row and the idempotencyKey,
 * so a retry with the same request replays the reversal, with another request is 409.
 */
@CommandHandler(ReverseDistributionMessage)
export class ReverseDistributionHandler implements ICommandHandler<ReverseDistributionMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, request, context }: ReverseDistributionMessage): Promise<{ reversal: ReversalView; replayed: boolean }> {
    const reversalId = deterministicId('rev', splitId, distributionId, request.idempotencyKey);
    const requestHash = requestFingerprint({ amountCents: request.amountCents, reason: request.reason, refundFee: request.refundFee });
    const result = await this.split.handle(
      {
        type: 'ReverseRow',
        data: { splitId, smeCompanyId, distributionId, reversalId, ...request, requestHash },
        metadata: this.split.metadata(context),
      },
      context,
    );
    await this.readYourWrites.after(result);
    const { state } = result;
    const recorded = splitExists(state) ? state.reversals.get(reversalId) : undefined;
    if (!splitExists(state) || !recorded) throw new Error(`reversal ${reversalId} was decided but is not on Split ${splitId}`);
    return {
      replayed: result.events.length === 0,
      reversal: {
        id: reversalId,
        splitId,
        distributionId: recorded.rosterEntryId,
        amountCents: recorded.amountCents,
        feeRefundedCents: recorded.feeRefundedCents,
        currency: state.currency,
        reason: recorded.reason,
        createdAt: recorded.reversedAt,
      },
    };
  }
}
