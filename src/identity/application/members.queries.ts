import { DocumentReader } from '../../platform/read-store/document-store.port';
import { API_KEYS, ApiKeyDoc, COMPANIES, CompanyDoc, USERS, UserDoc } from '../projections/identity-read-model.projection';
import { FOUNDERS, FounderDoc, INVITATIONS, InvitationDoc, MEMBERS, MemberDoc, memberDocId } from '../projections/members.projection';
import type { Role } from '../domain/role';

/** The member's role in the company, or null when the user is not (or no longer) one. */
export async function roleIn(documents: DocumentReader, companyId: string, userId: string): Promise<Role | null> {
  return (await documents.get<MemberDoc>(MEMBERS, memberDocId(companyId, userId)))?.role ?? null;
}

export async function founderOf(documents: DocumentReader, companyId: string): Promise<string | null> {
  return (await documents.get<FounderDoc>(FOUNDERS, companyId))?.userId ?? null;
}

export function membersOfCompany(documents: DocumentReader, companyId: string): Promise<MemberDoc[]> {
  return documents.find<MemberDoc>(MEMBERS, { filter: { companyId }, sort: [{ field: 'joinedAt', direction: 'asc' }] });
}

export function pendingInvitations(documents: DocumentReader, companyId: string): Promise<InvitationDoc[]> {
  return documents.find<InvitationDoc>(INVITATIONS, { filter: { companyId, status: 'pending' }, sort: [{ field: 'invitedAt', direction: 'desc' }] });
}

export interface Membership {
  companyId: string;
  companyName: string;
  role: Role;
}

/** Every company the user belongs to, its own first (the one it signed up or was provisioned with). */
export async function membershipsOf(documents: DocumentReader, userId: string): Promise<Membership[]> {
  const [members, user] = await Promise.all([
    documents.find<MemberDoc>(MEMBERS, { filter: { userId }, sort: [{ field: 'joinedAt', direction: 'asc' }] }),
    documents.get<UserDoc>(USERS, userId),
  ]);
  const ordered = [...members.filter((m) => m.companyId === user?.companyId), ...members.filter((m) => m.companyId !== user?.companyId)];
  return Promise.all(
    ordered.map(async (member) => ({
      companyId: member.companyId,
      companyName: (await documents.get<CompanyDoc>(COMPANIES, member.companyId))?.name ?? member.companyId,
      role: member.role,
    })),
  );
}

/**
 * Display names of actors (`user:<id>` -> the member's email, `api_key:<id>` -> the key's name), for
 * history and lists that should show who did something, not only an id. Only the viewer's own people
 * and keys are named (another company's member stays an id: views per audience); others are absent.
 */
export async function actorNames(documents: DocumentReader, viewerCompanyId: string, actors: readonly string[]): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  for (const actor of new Set(actors)) {
    const [kind, id] = actor.split(':', 2) as [string, string | undefined];
    if (!id) continue;
    if (kind === 'user') {
      const member = await documents.get<MemberDoc>(MEMBERS, memberDocId(viewerCompanyId, id));
      if (member) names[actor] = member.email;
    } else if (kind === 'api_key') {
      const key = await documents.get<ApiKeyDoc>(API_KEYS, id);
      if (key?.companyId === viewerCompanyId) names[actor] = `API key "${key.name}"`;
    }
  }
  return names;
}
