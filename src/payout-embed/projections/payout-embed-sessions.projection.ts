import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { LIFECYCLE_STATUS, SESSION_STREAM_PREFIX, SessionEvent, SessionStatus } from '../domain/payout-embed.events';

export const PAYOUT_EMBED_SESSIONS = 'payout_embed_sessions';

/** The read model of a session (the integration API's GET and list). */
export interface SessionDoc {
  id: string;
  companyId: string;
  status: SessionStatus;
  amountCents: string;
  currency: string;
  recipientEmail: string;
  recipientName: string | null;
  description: string | null;
  expiresAt: string;
  allowedOrigins: string[];
  returnUrl: string | null;
  payoutId: string | null;
  walletEmail: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** Issue 30 (absent on documents projected before): who started a session that needs a second member, and who confirmed it. */
  startedBy?: string | null;
  awaitingConfirmation?: boolean;
  confirmedBy?: string | null;
}

const HANDLED = new Set([...Object.keys(LIFECYCLE_STATUS), 'payout_embed.session.payout_started', 'payout_embed.session.confirmed']);

@Injectable()
@LogSubscriber()
export class PayoutEmbedSessionsProjection implements Projection {
  readonly name = 'payout_embed_sessions';
  readonly streams = [SESSION_STREAM_PREFIX];
  readonly collections = [
    {
      name: PAYOUT_EMBED_SESSIONS,
      indexes: [
        ['companyId', 'createdAt'],
        ['companyId', 'status', 'createdAt'],
      ],
    },
  ];

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as SessionEvent;
    const at = recorded.metadata.occurredAt;
    if (event.type === 'payout_embed.session.created') {
      const d = event.data;
      writer.put<SessionDoc>(PAYOUT_EMBED_SESSIONS, {
        id: d.sessionId,
        companyId: d.companyId,
        status: 'created',
        amountCents: d.amountCents,
        currency: d.currency,
        recipientEmail: d.recipientEmail,
        recipientName: d.recipientName,
        description: d.description,
        expiresAt: d.expiresAt,
        allowedOrigins: d.allowedOrigins,
        returnUrl: d.returnUrl,
        payoutId: null,
        walletEmail: null,
        failureReason: null,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        startedBy: d.confirmation?.startedBy ?? null,
        awaitingConfirmation: d.confirmation !== undefined,
        confirmedBy: null,
      });
      return;
    }
    const doc = await writer.get<SessionDoc>(PAYOUT_EMBED_SESSIONS, event.data.sessionId);
    if (!doc) return;
    doc.updatedAt = at;
    if (event.type === 'payout_embed.session.confirmed') Object.assign(doc, { awaitingConfirmation: false, confirmedBy: event.data.confirmedBy });
    else if (event.type === 'payout_embed.session.payout_started') Object.assign(doc, { payoutId: event.data.payoutId, walletEmail: event.data.walletEmail });
    else doc.status = LIFECYCLE_STATUS[event.type] ?? doc.status;
    if (event.type === 'payout_embed.session.failed') doc.failureReason = event.data.failureReason;
    writer.put<SessionDoc>(PAYOUT_EMBED_SESSIONS, doc);
  }
}
