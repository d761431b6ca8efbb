import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMetaDto } from '../../platform/http/openapi';
import { SESSION_STATUSES } from '../domain/payout-embed.events';

export class SessionViewDto {
  @ApiProperty({ example: 'pes_0mf3k2j8qa7x1c9d0e4r5t6y7u' }) id!: string;
  @ApiProperty({ enum: SESSION_STATUSES }) status!: string;
  @ApiProperty({ example: '2500' }) amountCents!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'ann@example.com' }) recipientEmail!: string;
  @ApiProperty({ nullable: true, type: String }) recipientName!: string | null;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ example: '2026-03-08T12:00:00.000Z' }) expiresAt!: string;
  @ApiProperty({ example: 'https://api.paysplit.example/embed/payouts/pes_...#t=...', description: 'Frame or open this; the token after #t= is the credential' })
  embedUrl!: string;
  @ApiProperty({ type: [String] }) allowedOrigins!: string[];
  @ApiProperty({ nullable: true, type: String }) returnUrl!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Set once the recipient named a wallet' }) payoutId!: string | null;
  @ApiProperty({ nullable: true, type: String }) failureReason!: string | null;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
  @ApiProperty({ description: "Issue 30: above the company's two-person threshold a second finance or owner member confirms it (POST .../:id/confirm) before it can be claimed" })
  awaitingConfirmation!: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'user:usr_00mwvg57bmrlmdka00oi8mkjzz', description: 'Who started a session that needs confirmation' })
  startedBy!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'user:usr_00mwvg57bmrlmdka00oi8mkjzy' }) confirmedBy!: string | null;
}

export class SessionResponseDto {
  @ApiProperty({ type: SessionViewDto }) data!: SessionViewDto;
}

export class SessionListResponseDto {
  @ApiProperty({ type: [SessionViewDto] }) data!: SessionViewDto[];
  @ApiProperty({ type: PageMetaDto }) meta!: PageMetaDto;
}

export class EmbedViewDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: SESSION_STATUSES }) status!: string;
  @ApiProperty({ example: 'Prize Co', description: 'Who is paying: the name of the company that created the session' }) senderName!: string;
  @ApiProperty() payoutInProgress!: boolean;
  @ApiProperty() amountCents!: string;
  @ApiProperty() currency!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) recipientName!: string | null;
  @ApiProperty({ example: 'a***@example.com' }) recipientEmailHint!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description!: string | null;
  @ApiProperty() expiresAt!: string;
  @ApiProperty() codeSent!: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) codeExpiresAt!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) lockedUntil!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) walletEmail!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) failureReason!: string | null;
  @ApiProperty({ type: [String] }) allowedOrigins!: string[];
  @ApiPropertyOptional({ nullable: true, type: String }) returnUrl!: string | null;
}

export class EmbedResponseDto {
  @ApiProperty({ type: EmbedViewDto }) data!: EmbedViewDto;
}

export class TopUpResultDto {
  @ApiProperty({ example: 'top_01a21053608b7367911ba4d857fce285' }) topUpId!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '100000' }) amountCents!: string;
}
