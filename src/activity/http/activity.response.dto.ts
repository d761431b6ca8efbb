import { ApiProperty } from '@nestjs/swagger';

export class ActivityResourceDto {
  @ApiProperty({ enum: ['split', 'order', 'payout_embed_session', 'api_key'], example: 'split' }) kind!: string;
  @ApiProperty({ example: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1' }) id!: string;
}

/** One line of the company's recent activity (GET /api/commerce/activity). */
export class ActivityEntryDto {
  @ApiProperty({ example: 'split.created', description: 'The event type behind the line' }) type!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) occurredAt!: string;
  @ApiProperty({ example: 'Split of 400.00 USD from Acme Staffing to Globex created' }) summary!: string;
  @ApiProperty({ type: ActivityResourceDto, description: 'What the line is about, for a link' }) resource!: ActivityResourceDto;
}
