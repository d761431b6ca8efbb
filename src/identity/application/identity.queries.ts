import { DocumentReader } from '../../platform/read-store/document-store.port';
import { normalizeEmail } from '../../platform/domain/email';
import { API_KEYS, ApiKeyDoc, COMPANIES, CompanyDoc, USERS, UserDoc } from '../projections/identity-read-model.projection';

// How other modules read identity's documents: by these functions, never by collection name.

export const company = (documents: DocumentReader, companyId: string) => documents.get<CompanyDoc>(COMPANIES, companyId);

export async function userByEmail(documents: DocumentReader, email: string): Promise<UserDoc | null> {
  const [user] = await documents.find<UserDoc>(USERS, { filter: { email: normalizeEmail(email) }, limit: 1 });
  return user ?? null;
}

export async function apiKeyByHash(documents: DocumentReader, keyHash: string): Promise<ApiKeyDoc | null> {
  const [key] = await documents.find<ApiKeyDoc>(API_KEYS, { filter: { keyHash }, limit: 1 });
  return key ?? null;
}
