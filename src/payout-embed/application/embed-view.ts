import { Command } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SessionState } from '../domain/payout-embed-session.decider';
import { SessionStatus } from '../domain/payout-embed.events';

/** What the embed page shows (GET /api/embed/payouts/:id); never the recipient's full email or any secret. */
export interface EmbedView {
  id: string;
  status: SessionStatus;
  /** Who is paying: the name of the company that created the session (issue 29 item 8). */
  senderName: string;
  /** claimed and the payout is on its way: the page waits for completed or failed. */
  payoutInProgress: boolean;
  amountCents: string;
  currency: string;
  recipientName: string | null;
  /** The recipient's email with most of the local part hidden (`a***@example.com`). */
  recipientEmailHint: string;
  description: string | null;
  expiresAt: string;
  codeSent: boolean;
  codeExpiresAt: string | null;
  lockedUntil: string | null;
  walletEmail: string | null;
  failureReason: string | null;
  allowedOrigins: string[];
  returnUrl: string | null;
}

export function embedViewOf(state: SessionState & { session: NonNullable<SessionState['session']> }, now: string, senderName: string): EmbedView {
  const s = state.session;
  const [local = '', domain = ''] = s.recipientEmail.split('@');
  return {
    id: s.sessionId,
    status: s.status,
    senderName,
    payoutInProgress: s.status === 'claimed' && state.payoutStarted,
    amountCents: s.amountCents,
    currency: s.currency,
    recipientName: s.recipientName,
    recipientEmailHint: `${local.slice(0, 1)}***@${domain}`,
    description: s.description,
    expiresAt: s.expiresAt,
    codeSent: state.codeHash !== null && state.codeExpiresAt !== null && now < state.codeExpiresAt,
    codeExpiresAt: state.codeExpiresAt,
    lockedUntil: state.lockedUntil !== null && now < state.lockedUntil ? state.lockedUntil : null,
    walletEmail: state.walletEmail,
    failureReason: state.failureReason,
    allowedOrigins: s.allowedOrigins,
    returnUrl: s.returnUrl,
  };
}

/** Every page call names the session and carries its embed token. */
export abstract class EmbedCommand extends Command<EmbedView> {
  constructor(
    readonly sessionId: string,
    readonly token: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Minor units to a number for display only (never for arithmetic). */
export function minorToMajor(amountCents: string, currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Number(amountCents) / 10 ** digits;
}
