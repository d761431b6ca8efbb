import { ApiProperty } from '@nestjs/swagger';
import { SCOPES } from '../domain/principal';
import { ROLES } from '../domain/role';

/** A company the person belongs to (issue 30). */
export class MembershipDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) companyId!: string;
  @ApiProperty({ example: 'Acme Staffing' }) companyName!: string;
  @ApiProperty({ enum: ROLES, example: 'owner' }) role!: string;
}

/** A new session: signup, login, magic link. */
export class SessionIssuedDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz', description: 'The company the session acts for' }) companyId!: string;
  @ApiProperty({ example: 'usr_00mwvg57bmy15bgq4r1afqq99p' }) userId!: string;
  @ApiProperty({ example: 'sess_i9D8neyiz9LL5Ezr5DTAX14h7Bh-UJDIn9FQ0pH8awA', description: 'Send as Authorization: Bearer <sessionToken>' }) sessionToken!: string;
  @ApiProperty({ enum: ROLES, example: 'owner', description: "The person's role in the session's company" }) role!: string;
  @ApiProperty({ type: [MembershipDto], description: 'Every company the person belongs to; switch with POST /api/auth/session/company' }) companies!: MembershipDto[];
}

/** POST /api/auth/session/company: the session now acts for another company of its person. */
export class CompanySwitchedDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) companyId!: string;
  @ApiProperty({ example: 'usr_00mwvg57bmy15bgq4r1afqq99p' }) userId!: string;
  @ApiProperty({ enum: ROLES, example: 'finance' }) role!: string;
  @ApiProperty({ type: [MembershipDto] }) companies!: MembershipDto[];
}

export class MemberDto {
  @ApiProperty({ example: 'usr_00mwvg57bmy15bgq4r1afqq99p' }) userId!: string;
  @ApiProperty({ example: 'fin@acme.test' }) email!: string;
  @ApiProperty({ enum: ROLES, example: 'finance' }) role!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.272Z' }) joinedAt!: string;
}

export class InvitationDto {
  @ApiProperty({ example: 'inv_00mwvg57konv0b7n1rk4xf7vef' }) inviteId!: string;
  @ApiProperty({ example: 'fin@acme.test' }) email!: string;
  @ApiProperty({ enum: ROLES, example: 'finance' }) role!: string;
  @ApiProperty({ enum: ['pending'], example: 'pending' }) status!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.272Z' }) invitedAt!: string;
  @ApiProperty({ example: 'owner@acme.test', description: 'Who invited, by email' }) invitedBy!: string;
}

export class InvitationSentDto {
  @ApiProperty({ example: 'inv_00mwvg57konv0b7n1rk4xf7vef' }) inviteId!: string;
  @ApiProperty({ example: 'fin@acme.test' }) email!: string;
  @ApiProperty({ enum: ROLES, example: 'finance' }) role!: string;
  @ApiProperty({ enum: ['pending'], example: 'pending' }) status!: string;
}

export class MemberChangedDto {
  @ApiProperty({ example: 'usr_00mwvg57bmy15bgq4r1afqq99p' }) userId!: string;
  @ApiProperty({ enum: ROLES, nullable: true, type: String, example: 'viewer', description: 'null once removed' }) role!: string | null;
}

export class InvitationRevokedDto {
  @ApiProperty({ example: 'inv_00mwvg57konv0b7n1rk4xf7vef' }) inviteId!: string;
  @ApiProperty({ example: true }) revoked!: boolean;
}

export class MagicLinkRequestedDto {
  @ApiProperty({ example: true }) requested!: boolean;
}

export class LoggedOutDto {
  @ApiProperty({ example: true }) loggedOut!: boolean;
}

export class ApiKeyIssuedDto {
  @ApiProperty({ example: 'key_00mwvg57konv0b7n1rk4xf7vef' }) id!: string;
  @ApiProperty({ example: 'server' }) name!: string;
  @ApiProperty({ example: 'sk_zDXcQcHg1ZOIpNV7w7a4Z4ahEZd5-oKY5YGeLdaNbHg', description: 'Shown only in this answer' }) key!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: string[];
  @ApiProperty({ example: '2026-11-25T01:30:13.272Z' }) createdAt!: string;
}

export class ApiKeyDto {
  @ApiProperty({ example: 'key_00mwvg57konv0b7n1rk4xf7vef' }) id!: string;
  @ApiProperty({ example: 'server' }) name!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: string[];
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'sk_zDXcQcHg',
    description: '`sk_` and the first 8 random characters, to tell keys apart; null for keys issued before prefixes were kept',
  })
  prefix!: string | null;
  @ApiProperty({ example: 'NbHg', description: 'The last four characters of the key' }) lastFour!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.272Z' }) createdAt!: string;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-25T02:14:00.000Z', description: 'When the key last authenticated a call, to the minute; null if never' })
  lastUsedAt!: string | null;
  @ApiProperty({ nullable: true, type: String }) revokedAt!: string | null;
}

export class ApiKeyRevokedDto {
  @ApiProperty({ example: 'key_00mwvg57konv0b7n1rk4xf7vef' }) id!: string;
  @ApiProperty({ example: true }) revoked!: boolean;
}

/** GET /api/auth/me: who the session belongs to. */
export class CurrentAccountDto {
  @ApiProperty({ example: 'usr_00mwvg57bmy15bgq4r1afqq99p' }) userId!: string;
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' }) companyId!: string;
  @ApiProperty({ example: 'Acme Staffing' }) companyName!: string;
  @ApiProperty({ example: 'owner@acme.test' }) email!: string;
  @ApiProperty({
    enum: ['company', 'contractor'],
    example: 'company',
    description: 'contractor: a passwordless account made for a roster email (signs in by magic link, sees its earnings); company: signed up with a password',
  })
  kind!: 'company' | 'contractor';
  @ApiProperty({
    example: true,
    description:
      'false until a password sign-up follows the confirmation link emailed to its address: meanwhile no roster row or SubVendor is attached to it by email and it cannot withdraw. True for every other account',
  })
  emailVerified!: boolean;
  @ApiProperty({ enum: ROLES, example: 'owner', description: "The person's role in this company (issue 30): what the session may do" }) role!: string;
  @ApiProperty({ type: [MembershipDto], description: 'Every company the person belongs to (the company switcher)' }) companies!: MembershipDto[];
}

export class PasswordResetDoneDto {
  @ApiProperty({ example: true }) reset!: boolean;
}
