import { given } from '../../../test/support/given-when-then';
import { membersDecider, membersOf } from './members.decider';
import { MembersEvent } from './members.events';
import { admittedRoles, ANY_ROLE, FINANCE, MANAGERS } from './role';
import { fold } from '../../platform/domain/decider';

const now = '2026-01-01T00:00:00.000Z';
const base = { companyId: 'co_1', founderUserId: 'usr_founder' };
const metadata = { now, actor: 'user:usr_founder' };
const invited = (inviteId: string, email: string, role: 'admin' | 'finance' | 'viewer' | 'owner'): MembersEvent => ({
  type: 'member.invited',
  data: { companyId: 'co_1', inviteId, email, role, invitedBy: 'usr_founder', invitedAt: now },
});
const joined = (inviteId: string, userId: string, email: string, role: 'admin' | 'finance' | 'viewer' | 'owner'): MembersEvent => ({
  type: 'member.joined',
  data: { companyId: 'co_1', inviteId, userId, email, role, joinedAt: now },
});

describe('members decider (issue 30)', () => {
  it('a company without member events has its first user as owner (companies from before roles)', () => {
    expect([...membersOf(fold(membersDecider, []), 'usr_founder')]).toEqual([['usr_founder', 'owner']]);
  });

  it('given nothing, when the owner invites an address, then the invitation is recorded with who asked', () => {
    given(membersDecider)
      .when({ type: 'InviteMember', data: { ...base, inviteId: 'inv_1', email: 'Fin@Example.com', role: 'finance', by: 'usr_founder', inviteeUserId: null }, metadata })
      .then([invited('inv_1', 'fin@example.com', 'finance')]);
  });

  it('given a member, when the owner invites its address again, then MEMBER_ALREADY_EXISTS', () => {
    given(membersDecider, invited('inv_1', 'fin@example.com', 'finance'), joined('inv_1', 'usr_fin', 'fin@example.com', 'finance'))
      .when({ type: 'InviteMember', data: { ...base, inviteId: 'inv_2', email: 'fin@example.com', role: 'viewer', by: 'usr_founder', inviteeUserId: 'usr_fin' }, metadata })
      .thenFails('MEMBER_ALREADY_EXISTS');
  });

  it("given an invitation, when its address's account accepts, then it joins with the invitation's role; a second use is a dead link", () => {
    const accept = { type: 'AcceptInvitation' as const, data: { ...base, inviteId: 'inv_1', userId: 'usr_fin', email: 'fin@example.com' }, metadata };
    given(membersDecider, invited('inv_1', 'fin@example.com', 'finance'))
      .when(accept)
      .then([joined('inv_1', 'usr_fin', 'fin@example.com', 'finance')]);
    given(membersDecider, invited('inv_1', 'fin@example.com', 'finance'), joined('inv_1', 'usr_fin', 'fin@example.com', 'finance'))
      .when(accept)
      .thenFails('MAGIC_LINK_INVALID');
  });

  it('given an invitation of one address, when another account presents it, then MAGIC_LINK_INVALID', () => {
    given(membersDecider, invited('inv_1', 'fin@example.com', 'finance'))
      .when({ type: 'AcceptInvitation', data: { ...base, inviteId: 'inv_1', userId: 'usr_other', email: 'other@example.com' }, metadata })
      .thenFails('MAGIC_LINK_INVALID');
  });

  it('given a revoked invitation, when it is accepted, then MAGIC_LINK_INVALID', () => {
    given(membersDecider, invited('inv_1', 'fin@example.com', 'finance'), {
      type: 'member.invite_revoked',
      data: { companyId: 'co_1', inviteId: 'inv_1', email: 'fin@example.com', revokedBy: 'usr_founder', revokedAt: now },
    })
      .when({ type: 'AcceptInvitation', data: { ...base, inviteId: 'inv_1', userId: 'usr_fin', email: 'fin@example.com' }, metadata })
      .thenFails('MAGIC_LINK_INVALID');
  });

  it('given only the founder, when it demotes or removes itself, then LAST_OWNER: a company keeps an owner', () => {
    given(membersDecider)
      .when({ type: 'ChangeRole', data: { ...base, userId: 'usr_founder', role: 'admin', by: 'usr_founder' }, metadata })
      .thenFails('LAST_OWNER');
    given(membersDecider)
      .when({ type: 'RemoveMember', data: { ...base, userId: 'usr_founder', by: 'usr_founder' }, metadata })
      .thenFails('LAST_OWNER');
  });

  it('given a second owner, when the founder leaves, then it is removed and the other owner remains', () => {
    const history = [invited('inv_1', 'co@example.com', 'owner'), joined('inv_1', 'usr_co', 'co@example.com', 'owner')];
    given(membersDecider, ...history)
      .when({ type: 'RemoveMember', data: { ...base, userId: 'usr_founder', by: 'usr_co' }, metadata })
      .then([{ type: 'member.removed', data: { companyId: 'co_1', userId: 'usr_founder', role: 'owner', removedBy: 'usr_co', removedAt: now } }]);
    const after = fold(membersDecider, [
      ...history,
      { type: 'member.removed', data: { companyId: 'co_1', userId: 'usr_founder', role: 'owner', removedBy: 'usr_co', removedAt: now } },
    ]);
    expect([...membersOf(after, 'usr_founder')]).toEqual([['usr_co', 'owner']]);
  });

  it('given a member, when its role changes, then the event says from what to what and who changed it; the same role again is nothing', () => {
    const history = [invited('inv_1', 'fin@example.com', 'finance'), joined('inv_1', 'usr_fin', 'fin@example.com', 'finance')];
    given(membersDecider, ...history)
      .when({ type: 'ChangeRole', data: { ...base, userId: 'usr_fin', role: 'viewer', by: 'usr_founder' }, metadata })
      .then([{ type: 'member.role_changed', data: { companyId: 'co_1', userId: 'usr_fin', role: 'viewer', previousRole: 'finance', changedBy: 'usr_founder', changedAt: now } }]);
    given(membersDecider, ...history)
      .when({ type: 'ChangeRole', data: { ...base, userId: 'usr_fin', role: 'finance', by: 'usr_founder' }, metadata })
      .thenNothing();
  });

  it('given no such member, when its role changes or it is removed, then MEMBER_NOT_FOUND', () => {
    given(membersDecider)
      .when({ type: 'ChangeRole', data: { ...base, userId: 'usr_x', role: 'viewer', by: 'usr_founder' }, metadata })
      .thenFails('MEMBER_NOT_FOUND');
    given(membersDecider)
      .when({ type: 'RemoveMember', data: { ...base, userId: 'usr_x', by: 'usr_founder' }, metadata })
      .thenFails('MEMBER_NOT_FOUND');
  });
});

describe('roles a route admits (issue 30)', () => {
  it('a read admits every role and a write owner and admin, unless the route declares its roles', () => {
    expect(admittedRoles(undefined, 'GET')).toEqual(ANY_ROLE);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(admittedRoles(undefined, method)).toEqual(MANAGERS);
    expect(admittedRoles(FINANCE, 'POST')).toEqual(FINANCE);
  });
});

describe('one open invitation per address (issue 30)', () => {
  it('given an invitation, when the address is invited again, then the older link is dead and the newer works', () => {
    const history = [invited('inv_1', 'fin@example.com', 'viewer'), invited('inv_2', 'fin@example.com', 'finance')];
    given(membersDecider, ...history)
      .when({ type: 'AcceptInvitation', data: { ...base, inviteId: 'inv_1', userId: 'usr_fin', email: 'fin@example.com' }, metadata })
      .thenFails('MAGIC_LINK_INVALID');
    given(membersDecider, ...history)
      .when({ type: 'AcceptInvitation', data: { ...base, inviteId: 'inv_2', userId: 'usr_fin', email: 'fin@example.com' }, metadata })
      .then([joined('inv_2', 'usr_fin', 'fin@example.com', 'finance')]);
  });
});
