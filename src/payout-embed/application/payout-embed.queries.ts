import { Inject, Injectable } from '@nestjs/common';
import { company } from '../../identity';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { payoutEmbedSessionDecider, SessionState } from '../domain/payout-embed-session.decider';
import { PayoutEmbedSessionNotFoundError } from '../domain/payout-embed.errors';
import { sessionStreamId, SessionStatus } from '../domain/payout-embed.events';
import { PAYOUT_EMBED_SESSIONS, SessionDoc } from '../projections/payout-embed-sessions.projection';
import { PayoutEmbedSecrets } from './payout-embed-secrets';

/** A session as the integration API shows it (docs/payout-embed.md#the-session). */
export interface SessionView {
  id: string;
  status: SessionStatus;
  amountCents: string;
  currency: string;
  recipientEmail: string;
  recipientName: string | null;
  description: string | null;
  expiresAt: string;
  embedUrl: string;
  allowedOrigins: string[];
  returnUrl: string | null;
  /** Set once the recipient named a wallet and the payout started. */
  payoutId: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** Issue 30: above the company's two-person threshold, a second member confirms it before it can be claimed. */
  awaitingConfirmation: boolean;
  /** The actor that started a session needing confirmation (`user:usr_...` or `api_key:key_...`), and the member that confirmed it. */
  startedBy: string | null;
  confirmedBy: string | null;
}

@Injectable()
export class PayoutEmbedQueries {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: PayoutEmbedSecrets,
    private readonly aggregates: AggregateRepository,
  ) {}

  embedUrl(sessionId: string): string {
    return `${this.config.publicBaseUrl}/embed/payouts/${sessionId}#t=${this.secrets.embedToken(sessionId)}`;
  }

  /** The caller's own session; another company's (or none) is 404. */
  async get(sessionId: string, companyId: string): Promise<SessionView> {
    const doc = await this.store.get<SessionDoc>(PAYOUT_EMBED_SESSIONS, sessionId);
    if (!doc || doc.companyId !== companyId) throw new PayoutEmbedSessionNotFoundError();
    return this.view(doc);
  }

  async list(companyId: string, status: SessionStatus | null, skip: number, limit: number): Promise<{ items: SessionView[]; total: number }> {
    const filter: Record<string, string> = status ? { companyId, status } : { companyId };
    const [docs, total] = await Promise.all([
      this.store.find<SessionDoc>(PAYOUT_EMBED_SESSIONS, {
        filter,
        sort: [
          { field: 'createdAt', direction: 'desc' },
          { field: 'id', direction: 'desc' },
        ],
        skip,
        limit,
      }),
      this.store.count(PAYOUT_EMBED_SESSIONS, filter),
    ]);
    return { items: docs.map((d) => this.view(d)), total };
  }

  /** The session's state straight from its stream, for the embed page's own calls (no read-model lag). */
  async stateOf(sessionId: string): Promise<SessionState> {
    return (await this.aggregates.load(sessionStreamId(sessionId), payoutEmbedSessionDecider)).state;
  }

  /** The paying company's name, as the recipient sees it (the embed page and the code email). */
  async senderName(companyId: string): Promise<string> {
    return (await company(this.store, companyId))?.name ?? 'The sender';
  }

  /** The session the embed token opens; a wrong token or id is 404 (nothing tells which was wrong). */
  async stateForToken(sessionId: string, token: string): Promise<SessionState & { session: NonNullable<SessionState['session']> }> {
    if (!/^pes_[0-9a-z]{26}$/.test(sessionId)) throw new PayoutEmbedSessionNotFoundError();
    const state = await this.stateOf(sessionId);
    if (!state.session || !this.secrets.tokenMatches(token, state.session.tokenHash)) throw new PayoutEmbedSessionNotFoundError();
    return state as SessionState & { session: NonNullable<SessionState['session']> };
  }

  view(doc: SessionDoc): SessionView {
    return {
      id: doc.id,
      status: doc.status,
      amountCents: doc.amountCents,
      currency: doc.currency,
      recipientEmail: doc.recipientEmail,
      recipientName: doc.recipientName,
      description: doc.description,
      expiresAt: doc.expiresAt,
      embedUrl: this.embedUrl(doc.id),
      allowedOrigins: doc.allowedOrigins,
      returnUrl: doc.returnUrl,
      payoutId: doc.payoutId,
      failureReason: doc.failureReason,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      awaitingConfirmation: doc.awaitingConfirmation ?? false,
      startedBy: doc.startedBy ?? null,
      confirmedBy: doc.confirmedBy ?? null,
    };
  }
}
