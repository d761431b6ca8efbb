import { DocumentReader } from '../../platform/read-store/document-store.port';
import { COMPANIES, CompanyDoc, USERS, UserDoc } from '../projections/identity-read-model.projection';

export interface CurrentAccount {
  userId: string;
  companyId: string;
  companyName: string;
  email: string;
  /**
   * contractor: a passwordless account the service made for a roster email (it signs in by magic link
   * and sees its earnings); company: an account that signed up with a password.
   */
  kind: 'company' | 'contractor';
  /** false until a password sign-up follows the link emailed to its address (issue 24); true for every other account. */
  emailVerified: boolean;
}

/** Who the session belongs to, for the dashboard's header and navigation. Null while not yet projected. */
export async function currentAccount(documents: DocumentReader, userId: string, companyId: string): Promise<CurrentAccount | null> {
  const [user, company] = await Promise.all([documents.get<UserDoc>(USERS, userId), documents.get<CompanyDoc>(COMPANIES, companyId)]);
  if (!user || !company) return null;
  return {
    userId,
    companyId,
    companyName: company.name,
    email: user.email,
    kind: user.passwordHash === null ? 'contractor' : 'company',
    emailVerified: user.emailVerified !== false,
  };
}
