import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { READ_STORE, ReadStore } from '../../platform/read-store/read-store.port';
import { InvalidCredentialsError } from '../domain/identity.errors';
import { UserDoc } from '../projections/identity-read-model.projection';
import { verifyPassword } from './password-hasher';
import { SessionIssuer } from './session-issuer';
import { normalizeEmail } from '../../platform/domain/email';
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
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly sessions: SessionIssuer,
  ) {}

  async execute(command: LoginCommand): Promise<SignedIn> {
    const [user] = await this.store.find<UserDoc>('users', { filter: { email: normalizeEmail(command.email) }, limit: 1 });
    // Passwordless accounts (made for roster emails) sign in by magic link only.
    if (!user?.passwordHash || !(await verifyPassword(command.password, user.passwordHash))) throw new InvalidCredentialsError();
    return { companyId: user.companyId, userId: user.id, sessionToken: await this.sessions.issue(user.id, user.companyId) };
  }
}
