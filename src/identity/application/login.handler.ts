import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { InvalidCredentialsError } from '../domain/identity.errors';
import { hashPassword, verifyPassword } from './password-hasher';
import { LoginAttempts } from './login-attempts';
import { SessionIssuer } from './session-issuer';
import { userByEmail } from './identity.queries';
import { SignedIn } from './signup.handler';
import { chooseCompany } from './company-choice';

export class LoginMessage extends Command<SignedIn> {
  constructor(
    readonly email: string,
    readonly password: string,
    /** The client's address as the HTTP server sees it, for the per-IP attempt limit. */
    readonly clientIp: string,
    /** The company to sign in to, for a person in several (issue 30); null: its own, else its first. */
    readonly companyId: string | null = null,
  ) {
    super();
  }
}

/**
 * Email and password for a session. Failed attempts are limited (LoginAttempts: 429 RATE_LIMITED with
 * Retry-After; a successful one gives its count back), and every attempt costs one scrypt whether the email has a password or not (an unknown
 * email, or a passwordless account made for a roster email, is checked against a dummy hash), so the
 * answer's timing does not tell which emails have an account.
 */
@CommandHandler(LoginMessage)
export class LoginHandler implements ICommandHandler<LoginMessage> {
  private dummyHash: Promise<string> | null = null;

  constructor(
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    private readonly sessions: SessionIssuer,
    private readonly attempts: LoginAttempts,
  ) {}

  async execute(command: LoginMessage): Promise<SignedIn> {
    await this.attempts.count(command.email, command.clientIp);
    const user = await userByEmail(this.documents, command.email);
    const passwordHash = user?.passwordHash ?? (await this.dummy());
    const matches = await verifyPassword(command.password, passwordHash);
    // Passwordless accounts (made for roster emails) sign in by magic link only.
    if (!user?.passwordHash || !matches) throw new InvalidCredentialsError();
    await this.attempts.succeeded(command.email, command.clientIp);
    const choice = await chooseCompany(this.documents, user.id, command.companyId, user.companyId);
    return { ...choice, userId: user.id, sessionToken: await this.sessions.issue(user.id, choice.companyId) };
  }

  /** A hash of a random password, made once: checking against it costs what checking a real one does. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}
