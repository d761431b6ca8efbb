import { ApiProperty } from '@nestjs/swagger';

/** A wallet waiting for its code (POST /api/commerce/me/wallet). */
export class WalletCodeSentDto {
  @ApiProperty({ example: 'wendy@wallet.example' }) walletEmail!: string;
  @ApiProperty({ example: '2026-11-25T01:40:13.334Z', description: 'The code works until then (10 minutes)' }) codeExpiresAt!: string;
}

/** The wallet on file after its code (POST /api/commerce/me/wallet/verify). */
export class VerifiedWalletDto {
  @ApiProperty({ example: 'wendy@wallet.example' }) walletEmail!: string;
  @ApiProperty({ example: '2026-11-25T01:31:13.334Z' }) verifiedAt!: string;
}
