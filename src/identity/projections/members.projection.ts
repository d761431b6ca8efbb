import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { ACCOUNT_STREAM_PREFIX, AccountEvent } from '../domain/identity.events';
import { MEMBERS_EVENT_TYPES, MEMBERS_STREAM_PREFIX, MembersEvent } from '../domain/members.events';
import type { Role } from '../domain/role';

/** A member of a company: id `<companyId>:<userId>`. The auth guard reads it on every session call. */
export interface MemberDoc {
  id: string;
  companyId: string;
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
  /** The company's first user (its owner from `user.registered`, with no member event). */
  founder: boolean;
}

/** The open or last invitation of an address to a company: id `<companyId>:<email>`. */
export interface InvitationDoc {
  id: string;
  companyId: string;
  inviteId: string;
  email: string;
  role: Role;
  invitedBy: string;
  invitedAt: string;
  status: 'pending' | 'accepted' | 'revoked';
}

/** The company's first user, whatever happened to its membership since (the members decider's founder). */
export interface FounderDoc {
  id: string;
  userId: string;
}

export const MEMBERS = 'company_members';
export const INVITATIONS = 'member_invitations';
export const FOUNDERS = 'company_founders';

export const memberDocId = (companyId: string, userId: string) => `${companyId}:${userId}`;
export const invitationDocId = (companyId: string, email: string) => `${companyId}:${email}`;

const TYPES = new Set<string>(['user.registered', ...MEMBERS_EVENT_TYPES]);

/**
 * Who belongs to which company as what. Every company's first user is its owner from its
 * `user.registered` (derived: companies and data from before roles get their owner on a rebuild or the
 * first catch-up, no event rewritten); member events record the rest.
 */
@Injectable()
@LogSubscriber()
export class MembersProjection implements Projection {
  readonly name = 'members';
  readonly streams = [ACCOUNT_STREAM_PREFIX, MEMBERS_STREAM_PREFIX];
  readonly collections = [{ name: MEMBERS, indexes: [['companyId'], ['userId']] }, { name: INVITATIONS, indexes: [['companyId']] }, { name: FOUNDERS }];

  handles(event: RecordedEvent): boolean {
    return TYPES.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as Extract<AccountEvent, { type: 'user.registered' }> | MembersEvent;
    switch (event.type) {
      case 'user.registered': {
        const { companyId, userId, email, registeredAt } = event.data;
        writer.put<FounderDoc>(FOUNDERS, { id: companyId, userId });
        writer.put<MemberDoc>(MEMBERS, { id: memberDocId(companyId, userId), companyId, userId, email, role: 'owner', joinedAt: registeredAt, founder: true });
        return;
      }
      case 'member.invited': {
        const { companyId, inviteId, email, role, invitedBy, invitedAt } = event.data;
        writer.put<InvitationDoc>(INVITATIONS, { id: invitationDocId(companyId, email), companyId, inviteId, email, role, invitedBy, invitedAt, status: 'pending' });
        return;
      }
      case 'member.joined': {
        const { companyId, userId, email, role, joinedAt, inviteId } = event.data;
        writer.put<MemberDoc>(MEMBERS, { id: memberDocId(companyId, userId), companyId, userId, email, role, joinedAt, founder: false });
        const invitation = await writer.get<InvitationDoc>(INVITATIONS, invitationDocId(companyId, email));
        if (invitation?.inviteId === inviteId) writer.put<InvitationDoc>(INVITATIONS, { ...invitation, status: 'accepted' });
        return;
      }
      case 'member.invite_revoked': {
        const invitation = await writer.get<InvitationDoc>(INVITATIONS, invitationDocId(event.data.companyId, event.data.email));
        if (invitation?.inviteId === event.data.inviteId) writer.put<InvitationDoc>(INVITATIONS, { ...invitation, status: 'revoked' });
        return;
      }
      case 'member.role_changed': {
        const id = memberDocId(event.data.companyId, event.data.userId);
        const member = await writer.get<MemberDoc>(MEMBERS, id);
        if (!member) throw new Error(`member.role_changed for unknown member ${id} (event ${recorded.id})`);
        writer.put<MemberDoc>(MEMBERS, { ...member, role: event.data.role });
        return;
      }
      case 'member.removed':
        writer.delete(MEMBERS, memberDocId(event.data.companyId, event.data.userId));
        return;
    }
  }
}
