import { Written } from '../../platform/projections/read-your-writes';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId, sha256Hex } from '../../platform/ids/ids';
import { accountDecider } from '../domain/account.decider';
import { accountStreamId } from '../domain/identity.events';
import { EmailAlreadyRegisteredError } from '../domain/identity.errors';
import { normalizeEmail } from '../../platform/domain/email';
import { MagicLinks } from './magic-links';

export interface Account {
  userId: string;
  companyId: string;
  /** True when this call created a passwordless account. */
  provisioned: boolean;
  /** The account stream, for read-your-writes (position null when nothing was written). */
  written: Written;
}

/**
 * Finds the service account of an email, or provisions a passwordless one that is active at once and
 * signs in by magic link (Split rows by email: docs/decisions.md#parties). Safe under concurrency: the
 * account stream per email decides who created it (docs/decisions.md#one-account-stream-per-email).
 * An unverified password sign-up is not an account here (issue 24): it is never found, and provisioning
 * releases its address and makes the passwordless account its real owner proves by the emailed link.
 */
@Injectable()
export class AccountDirectory {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly magicLinks: MagicLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async find(email: string): Promise<Omit<Account, 'provisioned' | 'written'> | null> {
    const { state } = await this.aggregates.load(accountStreamId(sha256Hex(normalizeEmail(email))), accountDecider);
    return state.status === 'registered' && state.verified ? { userId: state.userId, companyId: state.companyId } : null;
  }

  /** `sendLink: false`: the caller sends its own link (an invitation, issue 30) instead of the account's. */
  async findOrProvision(email: string, fullName: string | null, context: CommandContext, options: { sendLink?: boolean } = {}): Promise<Account> {
    const existing = await this.find(email);
    if (existing) return { ...existing, provisioned: false, written: { streamId: accountStreamId(sha256Hex(normalizeEmail(email))), position: null } };
    const metadata = commandMetadata(this.clock, context);
    const userId = newId('usr', Date.parse(metadata.now));
    const companyId = newId('co', Date.parse(metadata.now));
    const normalized = normalizeEmail(email);
    try {
      const result = await this.aggregates.handle(
        accountStreamId(sha256Hex(normalized)),
        accountDecider,
        { type: 'ProvisionAccount', data: { companyId, companyName: fullName ?? normalized, userId, email: normalized }, metadata },
        context,
      );
      if (options.sendLink !== false) await this.magicLinks.send(userId, companyId, normalized);
      return { userId, companyId, provisioned: true, written: result };
    } catch (error) {
      if (!(error instanceof EmailAlreadyRegisteredError)) throw error;
      const raced = await this.find(email);
      if (!raced) throw error;
      return { ...raced, provisioned: false, written: { streamId: accountStreamId(sha256Hex(normalized)), position: null } };
    }
  }
}
