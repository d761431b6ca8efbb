import { DomainEvent } from '../../platform/domain/decider';
import type { Role } from './role';

// A company's members (issue 30), one stream per company: `members-<companyId>`. The company's first user
// is its owner without an event here (see role.ts); these events record everything after that. Each
// carries the acting user (`by`) besides the metadata's actor, so a member list can say who did it.

/** Someone with `email` is invited as `role`; the emailed link makes them a member. */
export type MemberInvited = DomainEvent<'member.invited', { companyId: string; inviteId: string; email: string; role: Role; invitedBy: string; invitedAt: string }>;
/** The invited person followed the link: user `userId` is a member with the invitation's role. */
export type MemberJoined = DomainEvent<'member.joined', { companyId: string; inviteId: string; userId: string; email: string; role: Role; joinedAt: string }>;
/** An invitation that was not accepted is withdrawn; its link signs nobody in. */
export type MemberInviteRevoked = DomainEvent<'member.invite_revoked', { companyId: string; inviteId: string; email: string; revokedBy: string; revokedAt: string }>;
export type MemberRoleChanged = DomainEvent<'member.role_changed', { companyId: string; userId: string; role: Role; previousRole: Role; changedBy: string; changedAt: string }>;
/** The member is no longer one: its sessions for the company stop working at once. */
export type MemberRemoved = DomainEvent<'member.removed', { companyId: string; userId: string; role: Role; removedBy: string; removedAt: string }>;

export type MembersEvent = MemberInvited | MemberJoined | MemberInviteRevoked | MemberRoleChanged | MemberRemoved;
export const MEMBERS_EVENT_TYPES: readonly MembersEvent['type'][] = ['member.invited', 'member.joined', 'member.invite_revoked', 'member.role_changed', 'member.removed'];

export const MEMBERS_STREAM_PREFIX = 'members-';
export const membersStreamId = (companyId: string) => `${MEMBERS_STREAM_PREFIX}${companyId}`;
