import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

export class WithdrawRequestDto {
  @ApiProperty({ example: '25000', description: 'Positive integer string in minor units (at most 10^15 - 1)' })
  @Matches(/^[1-9][0-9]{0,14}$/, { message: '$property must be a positive whole number of minor units as a string (e.g. "2500")' })
  amountCents!: string;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 code in upper case' })
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 currency code in upper case (e.g. "USD")' })
  currency!: string;
}
