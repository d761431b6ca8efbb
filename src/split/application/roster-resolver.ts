import { Written } from '../../platform/projections/read-your-writes';
import { Inject, Injectable } from '@nestjs/common';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { newId } from '../../platform/ids/ids';
import { BatchDocumentReader, DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { PrefetchedDocuments } from '../../platform/read-store/prefetched-documents';
import { creator as creatorOf, prefetchRosterParties, subVendor as subVendorOf, type SubVendorDoc, subVendorPayee, SubVendorRegistry } from '../../parties';
import { RosterRowInput } from '../domain/split.commands';
import { SplitContractorNotActiveCreatorError, SplitSubVendorNotOwnedError } from '../domain/split.errors';

/** A roster row as the caller sent it (one of the three contractor fields is set; the DTO checked that). */
export interface RosterRowRequest {
  amountCents: string;
  earlyPayoutElected?: boolean;
  autoWithdrawElected?: boolean;
  businessCoversFee?: boolean;
  contractorPaymentProfileId?: string;
  subVendorId?: string;
  email?: string;
  fullName?: string;
}

export interface ResolvedRoster {
  rows: RosterRowInput[];
  /** Email rows whose SubVendor (and maybe account) is created by commit(). */
  toProvision: { email: string; fullName: string | null }[];
}

/**
 * Turns request rows into rows the decider can judge, without writing anything: creators and
 * sub-vendors are looked up, email rows are previewed as the SubVendor they will become. Only after the
 * whole command passed the decider does commit() provision those SubVendors.
 */
@Injectable()
export class RosterResolver {
  constructor(
    @Inject(DOCUMENT_READER) private readonly documents: BatchDocumentReader,
    private readonly subVendors: SubVendorRegistry,
  ) {}

  async resolve(smeCompanyId: string, rows: RosterRowRequest[], nowMs: number): Promise<ResolvedRoster> {
    const resolved: RosterRowInput[] = [];
    const toProvision: ResolvedRoster['toProvision'] = [];
    // A document read per row was the largest part of a Split create's CPU in the api (issue 31).
    const documents = new PrefetchedDocuments(this.documents);
    await prefetchRosterParties(documents, {
      paymentProfileIds: rows.flatMap((row) => (row.contractorPaymentProfileId !== undefined ? [row.contractorPaymentProfileId] : [])),
      subVendorIds: rows.flatMap((row) => (row.subVendorId !== undefined ? [row.subVendorId] : [])),
    });
    for (const [index, row] of rows.entries()) {
      const flags = {
        distributionId: newId('dst', nowMs),
        amountCents: row.amountCents,
        earlyPayoutElected: row.earlyPayoutElected ?? false,
        autoWithdrawElected: row.autoWithdrawElected ?? false,
        businessCoversFee: row.businessCoversFee ?? false,
      };
      if (row.contractorPaymentProfileId !== undefined) {
        resolved.push({ ...flags, contractor: await this.creator(documents, row.contractorPaymentProfileId, index) });
      } else if (row.subVendorId !== undefined) {
        resolved.push({ ...flags, contractor: await this.subVendorContractor(documents, await this.ownedSubVendor(documents, smeCompanyId, row.subVendorId, index)) });
      } else {
        const input = { email: row.email!, fullName: row.fullName ?? null, walletEmail: null, kind: 'PERSON' as const };
        const preview = await this.subVendors.preview(smeCompanyId, input);
        if (!preview.exists) toProvision.push({ email: input.email, fullName: input.fullName });
        resolved.push({ ...flags, contractor: await this.subVendorContractor(documents, preview.subVendor) });
      }
    }
    return { rows: resolved, toProvision };
  }

  /**
   * One contractor already known to the SME (issue 26: the one a failed row is re-pointed to): an active
   * creator payment profile, or a sub-vendor of the SME's own roster. Errors name row 0.
   */
  async existingContractor(smeCompanyId: string, by: { contractorPaymentProfileId?: string; subVendorId?: string }): Promise<RosterRowInput['contractor']> {
    if (by.contractorPaymentProfileId !== undefined) return this.creator(this.documents, by.contractorPaymentProfileId, 0);
    return this.subVendorContractor(this.documents, await this.ownedSubVendor(this.documents, smeCompanyId, by.subVendorId!, 0));
  }

  /** Provisions the roster's new sub-vendors; returns what was written, for read-your-writes. */
  async commit(smeCompanyId: string, roster: ResolvedRoster, context: CommandContext): Promise<Written[]> {
    const written: Written[] = [];
    for (const row of roster.toProvision) {
      written.push(...(await this.subVendors.register(smeCompanyId, { ...row, walletEmail: null, kind: 'PERSON' }, context)).written);
    }
    return written;
  }

  private async creator(documents: DocumentReader, paymentProfileId: string, index: number): Promise<RosterRowInput['contractor']> {
    const creator = await creatorOf(documents, paymentProfileId);
    if (!creator || !creator.active) throw new SplitContractorNotActiveCreatorError(index);
    return {
      kind: 'creator',
      paymentProfileId: creator.id,
      creatorProfileId: creator.creatorProfileId,
      displayName: creator.fullName,
      email: creator.email,
      // Only an active, verified wallet can receive an auto-withdrawal.
      walletEmail: creator.wallet?.active && creator.wallet.verified ? creator.wallet.email : null,
    };
  }

  private async ownedSubVendor(documents: DocumentReader, smeCompanyId: string, subVendorId: string, index: number): Promise<SubVendorDoc> {
    const subVendor = await subVendorOf(documents, subVendorId);
    if (!subVendor || subVendor.smeCompanyId !== smeCompanyId) throw new SplitSubVendorNotOwnedError(index);
    return subVendor;
  }

  /**
   * A sub-vendor row: named as the SME named it (else by its email), paid to the wallet its contractor verified
   * itself (issue 29), else the one the SME supplied, else the account's creator wallet only while it is active
   * and verified (never an inactive or unverified one). An auto-withdrawal looks the contractor's own wallet up
   * again when the row is paid (CompleteRowTransferHandler).
   */
  private async subVendorContractor(documents: DocumentReader, subVendor: SubVendorDoc): Promise<RosterRowInput['contractor']> {
    const payee = await subVendorPayee(documents, subVendor);
    return {
      kind: 'sub_vendor',
      subVendorId: subVendor.id,
      creatorProfileId: subVendor.creatorProfileId,
      displayName: payee.fullName ?? subVendor.email,
      email: subVendor.email,
      walletEmail: payee.payoutWallet,
    };
  }
}
