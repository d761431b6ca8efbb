import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { CommandContext, Decided } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { foldSplitView, SplitView, timedSplitEvent } from '../projections/split-read-model.projection';
import { SplitEvent } from '../domain/split.events';
import { SplitState } from '../domain/split.state';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { roleIn } from '../../identity';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * The enterprise approves a Split billed to it, at the revision it reviewed: PENDING_APPROVAL -> APPROVED
 * (404 for anyone else, 409 unless pending, 409 SPLIT_CHANGED_SINCE_REVIEW at another revision). A Split
 * that needs two approvals (issue 30) stays pending after the first; see split.decider.ts approveSplit.
 */
export class ApproveSplitMessage extends Command<SplitView> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly splitId: string,
    readonly expectedRevision: number,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ApproveSplitMessage)
export class ApproveSplitHandler implements ICommandHandler<ApproveSplitMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ enterpriseCompanyId, splitId, expectedRevision, context }: ApproveSplitMessage): Promise<SplitView> {
    const overdueInvoice = await this.queries.overdueInvoiceOf(enterpriseCompanyId);
    // Issue 30: nobody from the SME approves its bill, not even a person who is also a member of the enterprise.
    const { smeCompanyId } = await this.queries.get(splitId, enterpriseCompanyId, 'enterprise');
    const userId = context.actor.startsWith('user:') ? context.actor.slice('user:'.length) : null;
    const approverIsSmeMember = userId !== null && (await roleIn(this.documents, smeCompanyId, userId)) !== null;
    const result = await this.split.handle(
      {
        type: 'ApproveSplit',
        data: { splitId, enterpriseCompanyId, expectedRevision, overdueInvoice, approverIsSmeMember },
        metadata: commandMetadata(this.clock, context),
      },
      context,
    );
    return this.answer(result, splitId, enterpriseCompanyId);
  }

  /**
   * The Split as the projection will write it once it applies the approval, folded from the stream up to
   * the approval (docs/decisions.md, "Split create and approve answer from the Split's own events"): the
   * answer does not wait for the worker. The worker may fund the Split a moment later; the approver sees
   * the state their approval left, and a read that follows waits for the Split's stream (SplitQueries).
   */
  private async answer(approved: Decided<SplitEvent, SplitState>, splitId: string, enterpriseCompanyId: string): Promise<SplitView> {
    const events = approved.revision === null ? [] : await this.events.readStream(approved.streamId, { maxCount: approved.revision + 1 });
    const view = foldSplitView(events.map(timedSplitEvent));
    if (view) return this.queries.shownTo(view, 'enterprise');
    await this.readYourWrites.after(approved);
    return this.queries.get(splitId, enterpriseCompanyId, 'enterprise');
  }
}
