import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, Matches, MaxLength } from 'class-validator';

export class AddWalletRequestDto {
  @ApiProperty({ example: 'wendy@wallet.example', description: 'The wallet email; a 6-digit code goes there' })
  @IsEmail({}, { message: 'walletEmail must be an email address' })
  @MaxLength(254)
  walletEmail!: string;
}

export class VerifyWalletRequestDto {
  @ApiProperty({ example: '123456', description: 'The 6-digit code emailed to the wallet' })
  @Matches(/^[0-9]{6}$/, { message: 'code must be the 6 digits from the email' })
  code!: string;
}
