import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsOmittable } from '../../platform/http/optional-field';
import { Role, ROLES } from '../domain/role';

export class SignupRequestDto {
  @ApiProperty({ example: 'Acme Staffing' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  companyName!: string;

  @ApiProperty({ example: 'ops@acme.test' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 8 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;
}

export class LoginRequestDto {
  @ApiProperty({ example: 'ops@acme.test' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  password!: string;

  @ApiPropertyOptional({
    example: 'co_00mwvg57bmrlmdka00oi8mkjzz',
    description: "For a person in several companies: which one to sign in to (default: the account's own, else its first)",
  })
  @IsOmittable()
  @IsString()
  @Matches(/^co_[0-9a-z]{1,40}$/)
  companyId?: string;
}

export class SwitchCompanyRequestDto {
  @ApiProperty({ example: 'co_00mwvg57bmrlmdka00oi8mkjzz' })
  @IsString()
  @Matches(/^co_[0-9a-z]{1,40}$/)
  companyId!: string;
}

export class InviteMemberRequestDto {
  @ApiProperty({ example: 'fin@acme.test' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ enum: ROLES, example: 'finance' })
  @IsIn(ROLES)
  role!: Role;
}

export class ChangeMemberRoleRequestDto {
  @ApiProperty({ enum: ROLES, example: 'viewer' })
  @IsIn(ROLES)
  role!: Role;
}

export class MagicLinkQueryDto {
  @ApiProperty({ description: 'The token from the link' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;
}

export class MagicLinkSignInRequestDto {
  @ApiProperty({ description: 'The token from the link (its `token` query parameter)' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;
}

export class MagicLinkRequestDto {
  @ApiProperty({ example: 'dana@example.test', description: 'The email of a passwordless account (made for a roster email)' })
  @IsEmail()
  @MaxLength(254)
  email!: string;
}

/** Issue 29 item 9: forgot password. */
export class PasswordResetRequestDto {
  @ApiProperty({ example: 'ops@acme.test', description: 'The email of the account whose password was forgotten' })
  @IsEmail()
  @MaxLength(254)
  email!: string;
}

/** Issue 29 item 9: a new password for the emailed reset link's account (the same rules as signup's). */
export class PasswordResetConfirmDto {
  @ApiProperty({ description: 'The token from the emailed link (its `token` query parameter)' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 8 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;
}
