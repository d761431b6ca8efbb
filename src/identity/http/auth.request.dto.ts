import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

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
