import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { ChangeMemberRoleMessage } from '../application/change-member-role.handler';
import { InviteMemberMessage } from '../application/invite-member.handler';
import { actorNames, membersOfCompany, pendingInvitations } from '../application/members.queries';
import { RemoveMemberMessage } from '../application/remove-member.handler';
import { RevokeInvitationMessage } from '../application/revoke-invitation.handler';
import { InvitationNotFoundError, LastOwnerError, MemberAlreadyExistsError, MemberNotFoundError } from '../domain/members.errors';
import type { Principal } from '../domain/principal';
import { OWNERS } from '../domain/role';
import { CurrentPrincipal, Roles, SessionAuth } from './auth';
import { ChangeMemberRoleRequestDto, InviteMemberRequestDto } from './auth.request.dto';
import { InvitationDto, InvitationRevokedDto, InvitationSentDto, MemberChangedDto, MemberDto } from './identity.response.dto';

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/**
 * A company's members (issue 30). Every member may read the list; only an owner invites, changes roles
 * and removes (admin is "everything but members and ownership").
 */
@ApiTags('identity')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/members')
export class MembersController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  @ApiData(MemberDto, { isArray: true })
  @Get()
  @ApiOperation({ summary: "The company's members with their roles, oldest first" })
  async list(@CurrentPrincipal() principal: SessionPrincipal) {
    const members = await membersOfCompany(this.documents, principal.companyId);
    return members.map(({ userId, email, role, joinedAt }) => ({ userId, email, role, joinedAt }));
  }

  @ApiData(InvitationDto, { isArray: true })
  @Get('invitations')
  @ApiOperation({ summary: 'Invitations not accepted yet, newest first' })
  async invitations(@CurrentPrincipal() principal: SessionPrincipal) {
    const invitations = await pendingInvitations(this.documents, principal.companyId);
    const names = await actorNames(
      this.documents,
      principal.companyId,
      invitations.map((i) => `user:${i.invitedBy}`),
    );
    return invitations.map(({ inviteId, email, role, status, invitedAt, invitedBy }) => ({
      inviteId,
      email,
      role,
      status,
      invitedAt,
      invitedBy: names[`user:${invitedBy}`] ?? invitedBy,
    }));
  }

  @ApiData(InvitationSentDto)
  @ApiErrors(MemberAlreadyExistsError)
  @Post()
  @Roles(...OWNERS)
  @ApiOperation({ summary: 'Invite a person by email with a role: a sign-in link is emailed (sandbox: GET /api/sandbox/outbox); signing in with it makes them a member' })
  invite(@Body() body: InviteMemberRequestDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    return this.commands.execute(new InviteMemberMessage(principal.companyId, principal.userId, body.email, body.role, request.id));
  }

  @ApiData(InvitationRevokedDto)
  @ApiErrors(InvitationNotFoundError)
  @Delete('invitations/:inviteId')
  @Roles(...OWNERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Withdraw an invitation not accepted yet: its link signs nobody in' })
  async revokeInvitation(@Param('inviteId') inviteId: string, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    await this.commands.execute(new RevokeInvitationMessage(principal.companyId, principal.userId, inviteId, request.id));
    return { inviteId, revoked: true };
  }

  @ApiData(MemberChangedDto)
  @ApiErrors(MemberNotFoundError, LastOwnerError)
  @Patch(':userId')
  @Roles(...OWNERS)
  @ApiOperation({ summary: "Change a member's role; its next call already has it. A company keeps at least one owner (409 LAST_OWNER)" })
  async changeRole(@Param('userId') userId: string, @Body() body: ChangeMemberRoleRequestDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    await this.commands.execute(new ChangeMemberRoleMessage(principal.companyId, principal.userId, userId, body.role, request.id));
    return { userId, role: body.role };
  }

  @ApiData(MemberChangedDto)
  @ApiErrors(MemberNotFoundError, LastOwnerError)
  @Delete(':userId')
  @Roles(...OWNERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a member: its sessions for this company stop working at once. A company keeps at least one owner (409 LAST_OWNER)' })
  async remove(@Param('userId') userId: string, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    await this.commands.execute(new RemoveMemberMessage(principal.companyId, principal.userId, userId, request.id));
    return { userId, role: null };
  }
}
