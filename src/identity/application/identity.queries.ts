import { DocumentReader } from '../../platform/read-store/document-store.port';
import { normalizeEmail } from '../../platform/domain/email';
import { API_KEYS, ApiKeyDoc, COMPANIES, CompanyDoc, USERS, UserDoc } from '../projections/identity-read-model.projection';

// How other modules read identity's documents: by these functions, never by collection name.

export const company = (documents: DocumentReader, companyId: string) => documents.get<CompanyDoc>(COMPANIES, companyId);

/** The user that holds the address now (a user that lost it to the address's owner is never found). */
export async function userByEmail(documents: DocumentReader, email: string): Promise<UserDoc | null> {
  const [user] = await documents.find<UserDoc>(USERS, { filter: { email: normalizeEmail(email), releasedAt: null }, limit: 1 });
  return user ?? null;
}

/**
 * Whether the user proved its address: false for a password sign-up whose emailed link was not followed
 * yet, and for a user that lost its address; true for every other (older documents have no field).
 */
export async function hasVerifiedEmail(documents: DocumentReader, userId: string): Promise<boolean> {
  const user = await documents.get<UserDoc>(USERS, userId);
  return user !== null && user.emailVerified !== false && user.releasedAt === undefined;
}

/** The address a user signs in with now (null for an unknown user or one that lost its address). */
export async function userEmail(documents: DocumentReader, userId: string): Promise<string | null> {
  const user = await documents.get<UserDoc>(USERS, userId);
  return user && user.releasedAt === undefined ? user.email : null;
}

export async function apiKeyByHash(documents: DocumentReader, keyHash: string): Promise<ApiKeyDoc | null> {
  const [key] = await documents.find<ApiKeyDoc>(API_KEYS, { filter: { keyHash }, limit: 1 });
  return key ?? null;
}
