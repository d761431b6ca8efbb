import { DocumentReader } from '../../platform/read-store/document-store.port';
import { COMPANIES, CompanyDoc, USERS, UserDoc } from '../projections/identity-read-model.projection';
import type { Role } from '../domain/role';
import { Membership, membershipsOf } from './members.queries';

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
  /** The person's role in this company (issue 30), and every company it belongs to (the company switcher). */
  role: Role;
  companies: Membership[];
}

/** Who the session belongs to, for the dashboard's header and navigation. Null while not yet projected. */
export async function currentAccount(documents: DocumentReader, userId: string, companyId: string): Promise<CurrentAccount | null> {
  const [user, company, companies] = await Promise.all([documents.get<UserDoc>(USERS, userId), documents.get<CompanyDoc>(COMPANIES, companyId), membershipsOf(documents, userId)]);
  const role = companies.find((c) => c.companyId === companyId)?.role;
  if (!user || !company || !role) return null;
  return {
    userId,
    companyId,
    companyName: company.name,
    email: user.email,
    // A passwordless account in a company it was invited to acts for that company, not as a contractor.
    kind: user.passwordHash === null && companyId === user.companyId ? 'contractor' : 'company',
    emailVerified: user.emailVerified !== false,
    role,
    companies,
  };
}
