import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import {
  BUSINESS_PROFILE_STREAM_PREFIX,
  BusinessProfileCreated,
  COMPANY_STREAM_PREFIX,
  CREATOR_STREAM_PREFIX,
  CreatorProfileCreated,
  PartiesEvent,
  SUB_VENDOR_STREAM_PREFIX,
  SubVendorCreated,
} from '../domain/parties.events';

/** Documents are the creation events' data, keyed by their id. */
export type BusinessProfileDoc = { id: string } & Omit<BusinessProfileCreated['data'], 'businessProfileId'>;

/** Keyed by the creator payment profile id (cpp_): what Split rows reference. */
export type CreatorDoc = { id: string } & Omit<CreatorProfileCreated['data'], 'paymentProfileId'>;

export type SubVendorDoc = { id: string } & Omit<SubVendorCreated['data'], 'subVendorId'>;

export interface SplitSettingsDoc {
  id: string;
  enterpriseCompanyId: string;
  smeCompanyId: string;
  autoAccept: boolean;
  coverFees: boolean;
  updatedAt: string;
}

export interface CompanySettingsDoc {
  id: string;
  netTermsDays: number;
}

export const COMPANY_SETTINGS = 'company_settings';
export const SPLIT_SETTINGS = 'split_settings';
export const BUSINESS_PROFILES = 'business_profiles';
export const CREATORS = 'creators';
export const SUB_VENDORS = 'sub_vendors';

export const splitSettingsId = (enterpriseCompanyId: string, smeCompanyId: string) => `${enterpriseCompanyId}__${smeCompanyId}`;

const TYPES = new Set<string>([
  'company.net_terms.set',
  'company.split_settings.set',
  'business_profile.created',
  'creator_profile.created',
  'sub_vendor.created',
  'sub_vendor.wallet_email.set',
]);

/** Everyone a Split can name: AP contacts, creators and their wallets, SMEs' sub-vendors, enterprise settings. */
@Injectable()
@LogSubscriber()
export class PartiesReadModelProjection implements Projection {
  readonly name = 'parties';
  readonly streams = [COMPANY_STREAM_PREFIX, BUSINESS_PROFILE_STREAM_PREFIX, CREATOR_STREAM_PREFIX, SUB_VENDOR_STREAM_PREFIX];
  readonly collections = [
    // Read by every Split create (the SME, the enterprise, its AP contact, the roster), changed rarely.
    { name: COMPANY_SETTINGS, readMostly: true },
    { name: SPLIT_SETTINGS, indexes: [['enterpriseCompanyId']], readMostly: true },
    { name: BUSINESS_PROFILES, indexes: [['companyId', 'createdAt']], readMostly: true },
    { name: CREATORS, indexes: [['userId'], ['email']], readMostly: true },
    {
      name: SUB_VENDORS,
      indexes: [['smeCompanyId', 'createdAt'], ['smeCompanyId', 'email'], ['userId']],
      readMostly: true,
    },
  ];

  handles(event: RecordedEvent): boolean {
    return TYPES.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as PartiesEvent;
    switch (event.type) {
      case 'company.net_terms.set':
        writer.put<CompanySettingsDoc>(COMPANY_SETTINGS, { id: event.data.companyId, netTermsDays: event.data.netTermsDays });
        return;
      case 'company.split_settings.set': {
        const { enterpriseCompanyId, smeCompanyId, autoAccept, coverFees, setAt } = event.data;
        writer.put<SplitSettingsDoc>(SPLIT_SETTINGS, {
          id: splitSettingsId(enterpriseCompanyId, smeCompanyId),
          enterpriseCompanyId,
          smeCompanyId,
          autoAccept,
          coverFees,
          updatedAt: setAt,
        });
        return;
      }
      case 'business_profile.created': {
        const { businessProfileId, ...rest } = event.data;
        writer.put<BusinessProfileDoc>(BUSINESS_PROFILES, { id: businessProfileId, ...rest });
        return;
      }
      case 'creator_profile.created': {
        const { paymentProfileId, ...rest } = event.data;
        writer.put<CreatorDoc>(CREATORS, { id: paymentProfileId, ...rest });
        return;
      }
      case 'sub_vendor.created': {
        const { subVendorId, ...rest } = event.data;
        writer.put<SubVendorDoc>(SUB_VENDORS, { id: subVendorId, ...rest });
        return;
      }
      case 'sub_vendor.wallet_email.set': {
        const subVendor = await writer.get<SubVendorDoc>(SUB_VENDORS, event.data.subVendorId);
        if (subVendor) writer.put<SubVendorDoc>(SUB_VENDORS, { ...subVendor, walletEmail: event.data.walletEmail });
        return;
      }
    }
  }
}
