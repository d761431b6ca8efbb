import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId, newId, sha256Hex } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { twoPersonThresholdOf } from '../../parties';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { IdempotencyKeyReusedError } from '../domain/payout-embed.errors';
import { balanceStreamId, sessionStreamId } from '../domain/payout-embed.events';
import { PayoutEmbedQueries, SessionView } from './payout-embed.queries';
import { PayoutEmbedSecrets } from './payout-embed-secrets';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export interface CreateSessionRequest {
  recipientEmail: string;
  recipientName: string | null;
  amountCents: string;
  currency: string;
  description: string | null;
  idempotencyKey: string | null;
  expiresInSeconds: number;
  allowedOrigins: string[];
  returnUrl: string | null;
}

export class CreatePayoutEmbedSessionMessage extends Command<{ session: SessionView; replayed: boolean }> {
  constructor(
    readonly companyId: string,
    readonly request: CreateSessionRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * docs/payout-embed.md#create. Reserve first, on the company's balance stream (422 and nothing appended
 * when short), then start the session's stream. Both steps are idempotent on the session id, which
 * derives from (company, idempotencyKey): a replay, or 50 concurrent identical requests, make one
 * reservation and one session; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED.
 */
@CommandHandler(CreatePayoutEmbedSessionMessage)
export class CreatePayoutEmbedSessionHandler implements ICommandHandler<CreatePayoutEmbedSessionMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    private readonly queries: PayoutEmbedQueries,
    private readonly secrets: PayoutEmbedSecrets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async execute({ companyId, request, context }: CreatePayoutEmbedSessionMessage): Promise<{ session: SessionView; replayed: boolean }> {
    const metadata = commandMetadata(this.clock, context);
    const now = new Date(metadata.now);
    const sessionId = request.idempotencyKey !== null ? deterministicId('pes', companyId, request.idempotencyKey) : newId('pes', now.getTime());
    const requestHash = sha256Hex(JSON.stringify(request));

    const existing = (await this.aggregates.load(sessionStreamId(sessionId), payoutEmbedSessionDecider)).state.session;
    if (existing) {
      if (existing.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
      await this.readYourWrites.afterStream(sessionStreamId(sessionId));
      return { session: await this.queries.get(sessionId, companyId), replayed: true };
    }

    // Issue 30: above the company's two-person threshold a second member confirms the session before it can be claimed.
    const threshold = await twoPersonThresholdOf(this.documents, companyId);
    const confirmation = threshold !== null && BigInt(request.amountCents) > BigInt(threshold) ? { confirmation: { startedBy: context.actor, aboveAmountCents: threshold } } : {};
    const reserved = await this.aggregates.handle(
      balanceStreamId(companyId),
      companyBalanceDecider,
      {
        type: 'Reserve',
        data: { companyId, sessionId, currency: request.currency, amountCents: request.amountCents, requestHash },
        metadata,
      },
      context,
      { retries: BALANCE_RETRIES },
    );
    const created = await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      {
        type: 'CreateSession',
        data: {
          sessionId,
          companyId,
          amountCents: request.amountCents,
          currency: request.currency,
          recipientEmail: request.recipientEmail,
          recipientName: request.recipientName,
          description: request.description,
          idempotencyKey: request.idempotencyKey,
          requestHash,
          tokenHash: this.secrets.tokenHash(this.secrets.embedToken(sessionId)),
          allowedOrigins: request.allowedOrigins,
          returnUrl: request.returnUrl,
          payoutId: deterministicId('po', 'payout-embed', sessionId),
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + request.expiresInSeconds * 1000).toISOString(),
          ...confirmation,
        },
        // Its own reading, taken where the append read the Clock before this command carried metadata: the
        // created event's occurredAt stays the time the session was written (createdAt is the request's time).
        metadata: commandMetadata(this.clock, context),
      },
      context,
    );
    await this.readYourWrites.after(reserved, created);
    if (created.events.length === 0) await this.readYourWrites.afterStream(sessionStreamId(sessionId));
    return { session: await this.queries.get(sessionId, companyId), replayed: created.events.length === 0 };
  }
}
