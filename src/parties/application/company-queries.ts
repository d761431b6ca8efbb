import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { company } from '../../identity';
import { DEFAULT_NET_TERMS_DAYS } from '../domain/company.decider';
import { approvalPolicyFor, companySettings, splitSettings, splitSettingsOfEnterprise } from './parties.queries';

export interface SmeSettingsView {
  smeCompanyId: string;
  smeCompanyName: string;
  autoAccept: boolean;
  coverFees: boolean;
  updatedAt: string;
}

export interface CompanyView {
  companyId: string;
  name: string;
  netTermsDays: number;
}

@Injectable()
export class CompanyQueries {
  constructor(@Inject(DOCUMENT_READER) private readonly documents: DocumentReader) {}

  async company(companyId: string): Promise<CompanyView | null> {
    const registered = await company(this.documents, companyId);
    if (!registered) return null;
    const settings = await companySettings(this.documents, companyId);
    return { companyId, name: registered.name, netTermsDays: settings?.netTermsDays ?? DEFAULT_NET_TERMS_DAYS };
  }

  /** What the enterprise set for this SME; nothing set means no auto-accept and no fee cover. */
  /** With the approval policy (issue 30): the one set for this SME, else the enterprise's default, else none. */
  async splitSettings(
    enterpriseCompanyId: string,
    smeCompanyId: string,
  ): Promise<{ autoAccept: boolean; coverFees: boolean; approvalPolicy: { requiredApprovals: 1 | 2; aboveAmountCents: string; autoAcceptCapCents: string | null } | null }> {
    const [doc, policy] = await Promise.all([
      splitSettings(this.documents, enterpriseCompanyId, smeCompanyId),
      approvalPolicyFor(this.documents, enterpriseCompanyId, smeCompanyId),
    ]);
    return {
      autoAccept: doc?.autoAccept ?? false,
      coverFees: doc?.coverFees ?? false,
      approvalPolicy: policy ? { requiredApprovals: policy.requiredApprovals, aboveAmountCents: policy.aboveAmountCents, autoAcceptCapCents: policy.autoAcceptCapCents } : null,
    };
  }

  /** The enterprise's settings per SME, most recently changed first (SMEs without settings have the defaults). */
  async splitSettingsList(enterpriseCompanyId: string): Promise<SmeSettingsView[]> {
    const docs = await splitSettingsOfEnterprise(this.documents, enterpriseCompanyId);
    return Promise.all(
      docs.map(async ({ smeCompanyId, autoAccept, coverFees, updatedAt }) => ({
        smeCompanyId,
        smeCompanyName: (await company(this.documents, smeCompanyId))?.name ?? smeCompanyId,
        autoAccept,
        coverFees,
        updatedAt,
      })),
    );
  }
}
