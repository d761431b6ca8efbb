import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { normalizeEmail } from '../../platform/domain/email';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { sha256Hex } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { accountDecider } from '../domain/account.decider';
import { PasswordResetInvalidError } from '../domain/identity.errors';
import { accountStreamId } from '../domain/identity.events';
import { USERS, UserDoc } from '../projections/identity-read-model.projection';
import { CredentialCutoffs } from './credential-cutoffs';
import { hashPassword } from './password-hasher';
import { PasswordResets } from './password-resets';

export class ResetPasswordMessage extends Command<{ reset: true }> {
  constructor(
    readonly token: string,
    readonly password: string,
    readonly correlationId: string,
  ) {
    super();
  }
}

/**
 * POST /api/auth/password/reset (issue 29 item 9): the emailed token is used up, the new password is recorded
 * on the account stream (user.password_reset; an unverified address is proven by the same link), and every
 * session of the user ends, this browser's included: the person signs in again with the new password.
 */
@CommandHandler(ResetPasswordMessage)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordMessage> {
  constructor(
    private readonly resets: PasswordResets,
    private readonly cutoffs: CredentialCutoffs,
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: ResetPasswordMessage): Promise<{ reset: true }> {
    const { userId } = await this.resets.claim(command.token);
    const user = await this.documents.get<UserDoc>(USERS, userId);
    if (!user || user.releasedAt !== undefined) throw new PasswordResetInvalidError();
    const context = { actor: `user:${userId}`, correlationId: command.correlationId };
    const result = await this.aggregates.handle(
      accountStreamId(sha256Hex(normalizeEmail(user.email))),
      accountDecider,
      { type: 'ResetPassword', data: { userId, passwordHash: await hashPassword(command.password) }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    await this.cutoffs.endAll(userId);
    return { reset: true };
  }
}
