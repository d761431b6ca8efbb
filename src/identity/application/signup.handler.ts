import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { newId, sha256Hex } from '../../platform/ids/ids';
import { normalizeEmail } from '../../platform/domain/email';
import { accountDecider } from '../domain/account.decider';
import { accountStreamId } from '../domain/identity.events';
import { hashPassword } from './password-hasher';
import { SessionIssuer } from './session-issuer';
import { MagicLinks } from './magic-links';
import type { Role } from '../domain/role';
import type { Membership } from './members.queries';

export interface SignedIn {
  companyId: string;
  userId: string;
  sessionToken: string;
  /** The person's role in the session's company (issue 30), and every company it belongs to. */
  role: Role;
  companies: Membership[];
}

export class SignupMessage extends Command<SignedIn> {
  constructor(
    readonly companyName: string,
    readonly email: string,
    readonly password: string,
    readonly correlationId: string,
  ) {
    super();
  }
}

@CommandHandler(SignupMessage)
export class SignupHandler implements ICommandHandler<SignupMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    private readonly sessions: SessionIssuer,
    private readonly magicLinks: MagicLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: SignupMessage): Promise<SignedIn> {
    const email = normalizeEmail(command.email);
    const nowMs = this.clock.now().getTime();
    const companyId = newId('co', nowMs);
    const userId = newId('usr', nowMs);
    // The actor is the user whose id embeds the time: the metadata is made from that one reading.
    const context = { actor: `user:${userId}`, correlationId: command.correlationId };
    const result = await this.aggregates.handle(
      accountStreamId(sha256Hex(email)),
      accountDecider,
      {
        type: 'RegisterAccount',
        data: { companyId, companyName: command.companyName, userId, email, passwordHash: await hashPassword(command.password) },
        metadata: { now: new Date(nowMs).toISOString(), actor: context.actor },
      },
      context,
    );
    await this.readYourWrites.after(result);
    // The address is unproven until this link is followed (issue 24); the account works meanwhile.
    await this.magicLinks.send(userId, companyId, email, 'verify_email');
    const sessionToken = await this.sessions.issue(userId, companyId);
    return { companyId, userId, sessionToken, role: 'owner', companies: [{ companyId, companyName: command.companyName, role: 'owner' }] };
  }
}
