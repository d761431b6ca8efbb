import { randomInt } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Outbox, type OutboxMessage } from '../../identity';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { newId } from '../../platform/ids/ids';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { sessionStreamId } from '../domain/payout-embed.events';
import { PayoutEmbedQueries } from './payout-embed.queries';
import { PayoutEmbedSecrets } from './payout-embed-secrets';
import { EmbedCommand, embedViewOf, EmbedView, minorToMajor } from './embed-view';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export class SendClaimCodeMessage extends EmbedCommand {}

/**
 * Step 1: a fresh 6-digit code to the recipient's email (the sandbox outbox), valid 10 minutes; only
 * its keyed hash is recorded. The message is written after the event, so a refused request sends nothing.
 */
@CommandHandler(SendClaimCodeMessage)
export class SendClaimCodeHandler implements ICommandHandler<SendClaimCodeMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: PayoutEmbedQueries,
    private readonly secrets: PayoutEmbedSecrets,
    private readonly outbox: Outbox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, token, context }: SendClaimCodeMessage): Promise<EmbedView> {
    const { session } = await this.queries.stateForToken(sessionId, token);
    const metadata = commandMetadata(this.clock, context);
    const now = new Date(metadata.now);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const result = await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      { type: 'SendCode', data: { codeHash: this.secrets.codeHash(sessionId, code) }, metadata },
      context,
    );
    const amount = new Intl.NumberFormat('en', { style: 'currency', currency: session.currency }).format(minorToMajor(session.amountCents, session.currency));
    const sender = await this.queries.senderName(session.companyId);
    const message: OutboxMessage = {
      id: newId('evt', now.getTime()),
      to: session.recipientEmail,
      subject: `Your code to claim ${amount} from ${sender}`,
      body: `${sender} is paying you ${amount} through Paysplit. Your payout code is ${code}. It works for 10 minutes. If you did not ask for it, ignore this email.`,
      link: '',
      sentAt: now.toISOString(),
    };
    await this.outbox.send(message);
    return embedViewOf({ ...result.state, session: result.state.session! }, now.toISOString(), sender);
  }
}
