import { Written } from '../../platform/projections/read-your-writes';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { deterministicId } from '../../platform/ids/ids';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { AccountDirectory } from '../../identity';
import { normalizeEmail } from '../../platform/domain/email';
import { SubVendorCreated, SubVendorKind, subVendorStreamId } from '../domain/parties.events';
import { subVendorDecider } from '../domain/sub-vendor.decider';
import { SubVendorDoc } from '../projections/parties-read-model.projection';
import { creatorOfUser } from './parties.queries';

export interface SubVendorInput {
  email: string;
  fullName: string | null;
  walletEmail: string | null;
  kind: SubVendorKind;
}

export interface RegisteredSubVendor {
  subVendor: SubVendorDoc;
  created: boolean;
  /** The sub-vendor and the account it may have provisioned, for read-your-writes. */
  written: Written[];
}

/**
 * One SubVendor per (SME, email), with a deterministic id: registering the same email again returns
 * the existing one as is. A new one is attached to the email's service account at once, or to a
 * passwordless account provisioned for it (no invite or accept step).
 */
@Injectable()
export class SubVendorRegistry {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly accounts: AccountDirectory,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * What register() would return, without writing anything: the existing SubVendor, or the one it
   * would create (an email with no account yet previews with userId null).
   */
  async preview(smeCompanyId: string, input: SubVendorInput): Promise<{ subVendor: SubVendorDoc; exists: boolean }> {
    const email = normalizeEmail(input.email);
    const subVendorId = deterministicId('sv', smeCompanyId, email);
    const existing = await this.aggregates.load(subVendorStreamId(subVendorId), subVendorDecider);
    if (existing.state.subVendor) return { subVendor: toDoc(existing.state.subVendor), exists: true };
    const account = await this.accounts.find(email);
    return { subVendor: toDoc((await this.newSubVendor(subVendorId, smeCompanyId, email, input, account?.userId ?? null, this.clock.now().toISOString())).data), exists: false };
  }

  async register(smeCompanyId: string, input: SubVendorInput, context: CommandContext): Promise<RegisteredSubVendor> {
    const email = normalizeEmail(input.email);
    const subVendorId = deterministicId('sv', smeCompanyId, email);
    const stream = subVendorStreamId(subVendorId);
    const existing = await this.aggregates.load(stream, subVendorDecider);
    if (existing.state.subVendor) return { subVendor: toDoc(existing.state.subVendor), created: false, written: [] };

    const account = await this.accounts.findOrProvision(email, input.fullName, context);
    const metadata = commandMetadata(this.clock, context);
    const event = await this.newSubVendor(subVendorId, smeCompanyId, email, input, account.userId, metadata.now);
    const result = await this.aggregates.handle(stream, subVendorDecider, { type: 'Create', event, metadata }, context);
    const stored = result.state.subVendor!;
    return { subVendor: toDoc(stored), created: result.events.length > 0, written: [account.written, result] };
  }

  private async newSubVendor(subVendorId: string, smeCompanyId: string, email: string, input: SubVendorInput, userId: string | null, createdAt: string): Promise<SubVendorCreated> {
    const creator = userId ? await creatorOfUser(this.documents, userId) : null;
    return {
      type: 'sub_vendor.created',
      data: {
        subVendorId,
        smeCompanyId,
        email,
        // Only what the SME supplied: an existing account's name and wallet are the account owner's
        // (the roster reads the wallet at resolution time, and only when active and verified).
        fullName: input.fullName,
        walletEmail: input.walletEmail,
        smeSuppliedOnly: true,
        kind: input.kind,
        userId,
        creatorProfileId: input.kind === 'PERSON' ? (creator?.creatorProfileId ?? null) : null,
        createdAt,
      },
    };
  }
}

export function toDoc(data: SubVendorCreated['data']): SubVendorDoc {
  const { subVendorId, ...rest } = data;
  return { id: subVendorId, ...rest };
}
