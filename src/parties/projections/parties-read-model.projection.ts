import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { BUSINESS_PROFILE_STREAM_PREFIX, BusinessProfileCreated, COMPANY_STREAM_PREFIX, CREATOR_STREAM_PREFIX, CreatorProfileCreated, PartiesEvent, SUB_VENDOR_STREAM_PREFIX, SubVendorCreated } from '../domain/parties.events';

/** Documents are the creation events' data, keyed by their id. */
export type BusinessProfileDoc = { id: string } & Omit<BusinessProfileCreated['data'], 'businessProfileId'> & { [field: string]: unknown };

/** Keyed by the creator payment profile id (cpp_): what Split rows reference. */
export type CreatorDoc = { id: string } & Omit<CreatorProfileCreated['data'], 'paymentProfileId'> & { [field: string]: unknown };

export type SubVendorDoc = { id: string } & Omit<SubVendorCreated['data'], 'subVendorId'> & { [field: string]: unknown };

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
@Injectable()
@LogSubscriber()
export class PartiesReadModelProjection implements Projection {
  readonly name = 'parties';
  readonly streams = [COMPANY_STREAM_PREFIX, BUSINESS_PROFILE_STREAM_PREFIX, CREATOR_STREAM_PREFIX, SUB_VENDOR_STREAM_PREFIX];
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
