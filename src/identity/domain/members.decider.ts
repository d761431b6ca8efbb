import { assertNever, Decider } from '../../platform/domain/decider';
import { normalizeEmail } from '../../platform/domain/email';
import { MagicLinkInvalidError } from './identity.errors';
import { MembersEvent } from './members.events';
import { InvitationNotFoundError, LastOwnerError, MemberAlreadyExistsError, MemberNotFoundError } from './members.errors';
import type { Role } from './role';
import { CommandMetadata } from '../../platform/domain/command';

/**
 * Every command names the company's first user (`founderUserId`, read from its account: a fact that never
 * changes), who is its owner until an event here says otherwise. Time and ids arrive in the command.
 */
type Founded = { founderUserId: string | null };

export type MembersCommand =
  | {
      type: 'InviteMember';
      data: Founded & { companyId: string; inviteId: string; email: string; role: Role; by: string; inviteeUserId: string | null };
      metadata: CommandMetadata;
    }
  | { type: 'AcceptInvitation'; data: Founded & { companyId: string; inviteId: string; userId: string; email: string }; metadata: CommandMetadata }
  | { type: 'RevokeInvitation'; data: Founded & { companyId: string; inviteId: string; by: string }; metadata: CommandMetadata }
  | { type: 'ChangeRole'; data: Founded & { companyId: string; userId: string; role: Role; by: string }; metadata: CommandMetadata }
  | { type: 'RemoveMember'; data: Founded & { companyId: string; userId: string; by: string }; metadata: CommandMetadata };

export interface MembersState {
  /** Roles set by events (null: removed); the founder's entry is absent until one concerns it. */
  roles: Record<string, Role | null>;
  invites: Record<string, { email: string; role: Role; pending: boolean }>;
}

/** Who is a member and as what: the founder as owner unless an event changed that, then every recorded role. */
export function membersOf(state: MembersState, founderUserId: string | null): Map<string, Role> {
  const members = new Map<string, Role>();
  if (founderUserId && !(founderUserId in state.roles)) members.set(founderUserId, 'owner');
  for (const [userId, role] of Object.entries(state.roles)) if (role) members.set(userId, role);
  return members;
}

export const membersDecider: Decider<MembersCommand, MembersEvent, MembersState> = {
  initialState: () => ({ roles: {}, invites: {} }),
  decide(command, state) {
    switch (command.type) {
      case 'InviteMember':
        return invite(command.data, state, command.metadata);
      case 'AcceptInvitation':
        return accept(command.data, state, command.metadata);
      case 'RevokeInvitation':
        return revokeInvitation(command.data, state, command.metadata);
      case 'ChangeRole':
        return changeRole(command.data, state, command.metadata);
      case 'RemoveMember':
        return remove(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'member.invited': {
        // One open invitation per address: a new one supersedes the older (its link is dead).
        const invites = Object.fromEntries(Object.entries(state.invites).map(([id, invite]) => [id, invite.email === event.data.email ? { ...invite, pending: false } : invite]));
        return { ...state, invites: { ...invites, [event.data.inviteId]: { email: event.data.email, role: event.data.role, pending: true } } };
      }
      case 'member.joined': {
        const invite = state.invites[event.data.inviteId];
        const invites = invite ? { ...state.invites, [event.data.inviteId]: { ...invite, pending: false } } : state.invites;
        return { roles: { ...state.roles, [event.data.userId]: event.data.role }, invites };
      }
      case 'member.invite_revoked': {
        const invite = state.invites[event.data.inviteId];
        return invite ? { ...state, invites: { ...state.invites, [event.data.inviteId]: { ...invite, pending: false } } } : state;
      }
      case 'member.role_changed':
        return { ...state, roles: { ...state.roles, [event.data.userId]: event.data.role } };
      case 'member.removed':
        return { ...state, roles: { ...state.roles, [event.data.userId]: null } };
      default:
        return assertNever(event);
    }
  },
};

function invite(data: Extract<MembersCommand, { type: 'InviteMember' }>['data'], state: MembersState, meta: CommandMetadata): MembersEvent[] {
  if (data.inviteeUserId && membersOf(state, data.founderUserId).has(data.inviteeUserId)) throw new MemberAlreadyExistsError();
  if (state.invites[data.inviteId]) return [];
  return [
    {
      type: 'member.invited',
      data: { companyId: data.companyId, inviteId: data.inviteId, email: normalizeEmail(data.email), role: data.role, invitedBy: data.by, invitedAt: meta.now },
    },
  ];
}

/** The invitation's link signs its address's account in: a used, revoked or unknown invitation is a dead link. */
function accept(data: Extract<MembersCommand, { type: 'AcceptInvitation' }>['data'], state: MembersState, meta: CommandMetadata): MembersEvent[] {
  const invitation = state.invites[data.inviteId];
  if (!invitation || !invitation.pending || invitation.email !== normalizeEmail(data.email)) throw new MagicLinkInvalidError();
  if (membersOf(state, data.founderUserId).has(data.userId)) return [];
  return [
    {
      type: 'member.joined',
      data: { companyId: data.companyId, inviteId: data.inviteId, userId: data.userId, email: invitation.email, role: invitation.role, joinedAt: meta.now },
    },
  ];
}

function revokeInvitation(data: Extract<MembersCommand, { type: 'RevokeInvitation' }>['data'], state: MembersState, meta: CommandMetadata): MembersEvent[] {
  const invitation = state.invites[data.inviteId];
  if (!invitation || !invitation.pending) throw new InvitationNotFoundError();
  return [{ type: 'member.invite_revoked', data: { companyId: data.companyId, inviteId: data.inviteId, email: invitation.email, revokedBy: data.by, revokedAt: meta.now } }];
}

function changeRole(data: Extract<MembersCommand, { type: 'ChangeRole' }>['data'], state: MembersState, meta: CommandMetadata): MembersEvent[] {
  const members = membersOf(state, data.founderUserId);
  const previousRole = members.get(data.userId);
  if (!previousRole) throw new MemberNotFoundError();
  if (previousRole === data.role) return [];
  if (previousRole === 'owner') assertAnotherOwner(members, data.userId);
  return [
    {
      type: 'member.role_changed',
      data: { companyId: data.companyId, userId: data.userId, role: data.role, previousRole, changedBy: data.by, changedAt: meta.now },
    },
  ];
}

function remove(data: Extract<MembersCommand, { type: 'RemoveMember' }>['data'], state: MembersState, meta: CommandMetadata): MembersEvent[] {
  const members = membersOf(state, data.founderUserId);
  const role = members.get(data.userId);
  if (!role) throw new MemberNotFoundError();
  if (role === 'owner') assertAnotherOwner(members, data.userId);
  return [{ type: 'member.removed', data: { companyId: data.companyId, userId: data.userId, role, removedBy: data.by, removedAt: meta.now } }];
}

function assertAnotherOwner(members: Map<string, Role>, leaving: string): void {
  if (![...members].some(([userId, role]) => role === 'owner' && userId !== leaving)) throw new LastOwnerError();
}
