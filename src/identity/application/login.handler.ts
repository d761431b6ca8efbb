import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { InvalidCredentialsError } from '../domain/identity.errors';
import { verifyPassword } from './password-hasher';
import { SessionIssuer } from './session-issuer';
import { userByEmail } from './identity.queries';
import { SignedIn } from './signup.handler';

export class LoginCommand extends Command<SignedIn> {
  constructor(
    readonly email: string,
    readonly password: string,
  ) {
    super();
  }
}

@CommandHandler(LoginCommand)
export class LoginHandler implements ICommandHandler<LoginCommand> {
  constructor(
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    private readonly sessions: SessionIssuer,
  ) {}

  async execute(command: LoginCommand): Promise<SignedIn> {
    const user = await userByEmail(this.documents, command.email);
    // Passwordless accounts (made for roster emails) sign in by magic link only.
    if (!user?.passwordHash || !(await verifyPassword(command.password, user.passwordHash))) throw new InvalidCredentialsError();
    return { companyId: user.companyId, userId: user.id, sessionToken: await this.sessions.issue(user.id, user.companyId) };
  }
}
