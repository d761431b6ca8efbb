import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { PartiesEvent, SubVendorKind, WalletData } from '../domain/parties.events';

export interface BusinessProfileDoc {
  id: string;
  companyId: string;
  displayName: string;
  email: string;
  createdAt: string;
  [field: string]: unknown;
}

export interface CreatorDoc {
  /** The creator payment profile id (cpp_): what Split rows reference. */
  id: string;
  creatorProfileId: string;
  userId: string;
  companyId: string;
  fullName: string;
  email: string;
  active: boolean;
  wallet: WalletData | null;
  createdAt: string;
  [field: string]: unknown;
}

export interface SubVendorDoc {
  id: string;
  smeCompanyId: string;
  email: string;
  fullName: string | null;
  walletEmail: string | null;
  kind: SubVendorKind;
  userId: string | null;
  creatorProfileId: string | null;
  createdAt: string;
  [field: string]: unknown;
}

export interface SplitSettingsDoc {
  id: string;
  enterpriseCompanyId: string;
  smeCompanyId: string;
  autoAccept: boolean;
  coverFees: boolean;
  updatedAt: string;
  [field: string]: unknown;
}

export interface CompanySettingsDoc {
  id: string;
  netTermsDays: number;
  [field: string]: unknown;
}

export const splitSettingsId = (enterpriseCompanyId: string, smeCompanyId: string) => `${enterpriseCompanyId}__${smeCompanyId}`;

const TYPES = new Set<string>(['company.net_terms.set', 'company.split_settings.set', 'business_profile.created', 'creator_profile.created', 'sub_vendor.created']);

/** Everyone a Split can name: AP contacts, creators and their wallets, SMEs' sub-vendors, enterprise settings. */
export class PartiesReadModelProjection implements Projection {
  readonly name = 'parties';
  readonly collections = [
    { name: 'company_settings' },
    { name: 'split_settings', indexes: [['enterpriseCompanyId']] },
    { name: 'business_profiles', indexes: [['companyId', 'createdAt']] },
    { name: 'creators', indexes: [['userId'], ['email']] },
    { name: 'sub_vendors', indexes: [['smeCompanyId', 'createdAt'], ['smeCompanyId', 'email']] },
  ];

  handles(event: RecordedEvent): boolean {
    return TYPES.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as PartiesEvent;
    switch (event.type) {
      case 'company.net_terms.set':
        writer.put('company_settings', { id: event.data.companyId, netTermsDays: event.data.netTermsDays });
        return;
      case 'company.split_settings.set': {
        const { enterpriseCompanyId, smeCompanyId, autoAccept, coverFees, setAt } = event.data;
        writer.put('split_settings', { id: splitSettingsId(enterpriseCompanyId, smeCompanyId), enterpriseCompanyId, smeCompanyId, autoAccept, coverFees, updatedAt: setAt });
        return;
      }
      case 'business_profile.created': {
        const { businessProfileId, ...rest } = event.data;
        writer.put('business_profiles', { id: businessProfileId, ...rest });
        return;
      }
      case 'creator_profile.created': {
        const { paymentProfileId, ...rest } = event.data;
        writer.put('creators', { id: paymentProfileId, ...rest });
        return;
      }
      case 'sub_vendor.created': {
        const { subVendorId, ...rest } = event.data;
        writer.put('sub_vendors', { id: subVendorId, ...rest });
        return;
      }
    }
  }
}
