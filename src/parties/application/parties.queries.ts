import { APPROVAL_POLICIES, ApprovalPolicyDoc, approvalPolicyId } from '../projections/approval-policy.projection';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { PrefetchedDocuments } from '../../platform/read-store/prefetched-documents';
import { CONTRACTOR_WALLETS } from '../projections/contractor-wallet.projection';
import {
  BUSINESS_PROFILES,
  BusinessProfileDoc,
  COMPANY_SETTINGS,
  CompanySettingsDoc,
  CREATORS,
  CreatorDoc,
  SPLIT_SETTINGS,
  splitSettingsId,
  SplitSettingsDoc,
  SUB_VENDORS,
  SubVendorDoc,
} from '../projections/parties-read-model.projection';

// How other modules read parties' documents: by these functions, never by collection name, so the
// parties read model can change shape without its readers knowing.

/** A creator payment profile (cpp_), what a Split row names as its contractor. */
export const creator = (documents: DocumentReader, paymentProfileId: string) => documents.get<CreatorDoc>(CREATORS, paymentProfileId);

/** The creator profile of an account, if its owner has one. */
export async function creatorOfUser(documents: DocumentReader, userId: string): Promise<CreatorDoc | null> {
  const [found] = await documents.find<CreatorDoc>(CREATORS, { filter: { userId }, limit: 1 });
  return found ?? null;
}

/**
 * Issue 31: what a Split roster reads by id, fetched in one query per collection: the creators and
 * sub-vendors its rows name, then the contractor wallets of those sub-vendors' accounts.
 */
export async function prefetchRosterParties(documents: PrefetchedDocuments, ids: { paymentProfileIds: string[]; subVendorIds: string[] }): Promise<void> {
  await Promise.all([documents.prefetch(CREATORS, ids.paymentProfileIds), documents.prefetch(SUB_VENDORS, ids.subVendorIds)]);
  const subVendors = await Promise.all(ids.subVendorIds.map((id) => documents.get<SubVendorDoc>(SUB_VENDORS, id)));
  await documents.prefetch(
    CONTRACTOR_WALLETS,
    subVendors.flatMap((found) => (found?.userId ? [found.userId] : [])),
  );
}

export const subVendor = (documents: DocumentReader, subVendorId: string) => documents.get<SubVendorDoc>(SUB_VENDORS, subVendorId);

export const businessProfile = (documents: DocumentReader, businessProfileId: string) => documents.get<BusinessProfileDoc>(BUSINESS_PROFILES, businessProfileId);

export const companySettings = (documents: DocumentReader, companyId: string) => documents.get<CompanySettingsDoc>(COMPANY_SETTINGS, companyId);

export const splitSettings = (documents: DocumentReader, enterpriseCompanyId: string, smeCompanyId: string) =>
  documents.get<SplitSettingsDoc>(SPLIT_SETTINGS, splitSettingsId(enterpriseCompanyId, smeCompanyId));

/** Every SME an enterprise has set Split settings for. */
export const splitSettingsOfEnterprise = (documents: DocumentReader, enterpriseCompanyId: string) =>
  documents.find<SplitSettingsDoc>(SPLIT_SETTINGS, { filter: { enterpriseCompanyId }, sort: [{ field: 'updatedAt', direction: 'desc' }] });

/** The roster entries (of every SME) a person signs in as: where its contractor earnings come from. */
export const subVendorsOfUser = (documents: DocumentReader, userId: string) => documents.find<SubVendorDoc>(SUB_VENDORS, { filter: { userId } });

/** Issue 30: the enterprise's approval policy for the SME's Splits: the SME's own, else the enterprise's default. */
export async function approvalPolicyFor(documents: DocumentReader, enterpriseCompanyId: string, smeCompanyId: string): Promise<ApprovalPolicyDoc | null> {
  return (
    (await documents.get<ApprovalPolicyDoc>(APPROVAL_POLICIES, approvalPolicyId(enterpriseCompanyId, smeCompanyId))) ??
    (await documents.get<ApprovalPolicyDoc>(APPROVAL_POLICIES, approvalPolicyId(enterpriseCompanyId, null)))
  );
}

/**
 * Issue 30, the SME side: a company's own default policy guards its own outgoing money too. When it asks for two
 * approvals, a Payout Embed session above `aboveAmountCents` is confirmed by a second member; else null.
 */
export async function twoPersonThresholdOf(documents: DocumentReader, companyId: string): Promise<string | null> {
  const policy = await documents.get<ApprovalPolicyDoc>(APPROVAL_POLICIES, approvalPolicyId(companyId, null));
  return policy?.requiredApprovals === 2 ? policy.aboveAmountCents : null;
}

export const approvalPoliciesOf = (documents: DocumentReader, enterpriseCompanyId: string) =>
  documents.find<ApprovalPolicyDoc>(APPROVAL_POLICIES, { filter: { enterpriseCompanyId }, sort: [{ field: 'updatedAt', direction: 'desc' }] });
