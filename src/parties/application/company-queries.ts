import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, ReadStore } from '../../platform/read-store/read-store.port';
import { CompanyDoc } from '../../identity/projections/identity-read-model.projection';
import { DEFAULT_NET_TERMS_DAYS } from '../domain/company.decider';
import { CompanySettingsDoc, splitSettingsId, SplitSettingsDoc } from '../projections/parties-read-model.projection';

export interface CompanyView {
  companyId: string;
  name: string;
  netTermsDays: number;
}

@Injectable()
export class CompanyQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async company(companyId: string): Promise<CompanyView | null> {
    const company = await this.store.get<CompanyDoc>('companies', companyId);
    if (!company) return null;
    const settings = await this.store.get<CompanySettingsDoc>('company_settings', companyId);
    return { companyId, name: company.name, netTermsDays: settings?.netTermsDays ?? DEFAULT_NET_TERMS_DAYS };
  }

  /** What the enterprise set for this SME; nothing set means no auto-accept and no fee cover. */
  async splitSettings(enterpriseCompanyId: string, smeCompanyId: string): Promise<{ autoAccept: boolean; coverFees: boolean }> {
    const doc = await this.store.get<SplitSettingsDoc>('split_settings', splitSettingsId(enterpriseCompanyId, smeCompanyId));
    return { autoAccept: doc?.autoAccept ?? false, coverFees: doc?.coverFees ?? false };
  }
}
