import { DocumentReader } from '../../platform/read-store/document-store.port';
import { NotAMemberError } from '../domain/members.errors';
import type { Role } from '../domain/role';
import { Membership, membershipsOf } from './members.queries';

export interface CompanyChoice {
  companyId: string;
  role: Role;
  /** Every company the person belongs to, for a company switcher. */
  companies: Membership[];
}

/**
 * Which company a sign-in's session is for: the one asked for (403 NOT_A_MEMBER unless the person belongs
 * to it), else `fallback` (the link's company, the account's own) while the person still belongs to it,
 * else the first company it belongs to (issue 30: a person may belong to several and picks one).
 */
export async function chooseCompany(documents: DocumentReader, userId: string, asked: string | null, fallback: string): Promise<CompanyChoice> {
  const companies = await membershipsOf(documents, userId);
  const chosen = asked !== null ? companies.find((c) => c.companyId === asked) : (companies.find((c) => c.companyId === fallback) ?? companies[0]);
  if (!chosen) throw new NotAMemberError();
  return { companyId: chosen.companyId, role: chosen.role, companies };
}
