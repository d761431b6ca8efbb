import { DomainEvent } from '../../platform/domain/decider';

export type CompanyNetTermsSet = DomainEvent<'company.net_terms.set', { companyId: string; netTermsDays: number; setAt: string }>;
export type CompanySplitSettingsSet = DomainEvent<
  'company.split_settings.set',
  { enterpriseCompanyId: string; smeCompanyId: string; autoAccept: boolean; coverFees: boolean; setAt: string }
>;
/**
 * Issue 30: the enterprise's approval policy for one SME's Splits (`smeCompanyId`) or its default (null):
 * above `aboveAmountCents` a Split needs `requiredApprovals` different members; auto-accept applies only
 * up to `autoAcceptCapCents` (null: no cap).
 */
export type CompanyApprovalPolicySet = DomainEvent<
  'company.approval_policy.set',
  { enterpriseCompanyId: string; smeCompanyId: string | null; requiredApprovals: 1 | 2; aboveAmountCents: string; autoAcceptCapCents: string | null; setAt: string }
>;
export type CompanyEvent = CompanyNetTermsSet | CompanySplitSettingsSet | CompanyApprovalPolicySet;

export type BusinessProfileCreated = DomainEvent<
  'business_profile.created',
  { businessProfileId: string; companyId: string; displayName: string; email: string; createdAt: string }
>;

export interface WalletData {
  email: string;
  active: boolean;
  verified: boolean;
}

export type CreatorProfileCreated = DomainEvent<
  'creator_profile.created',
  {
    creatorProfileId: string;
    paymentProfileId: string;
    userId: string;
    companyId: string;
    fullName: string;
    email: string;
    active: boolean;
    wallet: WalletData | null;
    createdAt: string;
  }
>;

export type SubVendorKind = 'PERSON' | 'BUSINESS';

export type SubVendorCreated = DomainEvent<
  'sub_vendor.created',
  {
    subVendorId: string;
    smeCompanyId: string;
    email: string;
    fullName: string | null;
    walletEmail: string | null;
    /**
     * true: fullName and walletEmail are exactly what the SME supplied. Absent on SubVendors created before
     * it was recorded, which copied the account's name and wallet when the SME gave none (sub-vendor-view.ts
     * hides such copies).
     */
    smeSuppliedOnly?: true;
    kind: SubVendorKind;
    /** The service account this contractor signs in with (existing or provisioned passwordless). */
    userId: string | null;
    creatorProfileId: string | null;
    createdAt: string;
  }
>;

/** The SME set (added or changed) a SubVendor's wallet email: instant payout can be elected for it from now on. */
export type SubVendorWalletEmailSet = DomainEvent<'sub_vendor.wallet_email.set', { subVendorId: string; smeCompanyId: string; walletEmail: string; setAt: string }>;

export type SubVendorEvent = SubVendorCreated | SubVendorWalletEmailSet;

export type PartiesEvent = CompanyEvent | BusinessProfileCreated | CreatorProfileCreated | SubVendorEvent;

export const COMPANY_STREAM_PREFIX = 'company-';
export const companyStreamId = (companyId: string) => `${COMPANY_STREAM_PREFIX}${companyId}`;
export const BUSINESS_PROFILE_STREAM_PREFIX = 'business-profile-';
export const businessProfileStreamId = (id: string) => `${BUSINESS_PROFILE_STREAM_PREFIX}${id}`;
export const CREATOR_STREAM_PREFIX = 'creator-';
export const creatorStreamId = (userId: string) => `${CREATOR_STREAM_PREFIX}${userId}`;
export const SUB_VENDOR_STREAM_PREFIX = 'sub-vendor-';
export const subVendorStreamId = (id: string) => `${SUB_VENDOR_STREAM_PREFIX}${id}`;
