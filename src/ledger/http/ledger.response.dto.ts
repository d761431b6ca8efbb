import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { SplitNotFoundError } from '../../split';

export class LedgerEntryDto {
  @ApiProperty({ example: 'sme_balance:co_00mwvg57bmrlmdka00oi8mkjzz', description: 'Account (docs/money.md)' }) account!: string;
  @ApiProperty({ example: '40000', description: 'Minor units, "0" on the credit side' }) debit!: string;
  @ApiProperty({ example: '0' }) credit!: string;
}

/** One balanced double-entry posting of a Split (GET .../splits/:id/ledger). */
export class PostingDto {
  @ApiProperty() id!: string;
  @ApiPropertyOptional({ description: 'The Payout Embed session of a reservation posting' }) sessionId?: string;
  @ApiPropertyOptional({ description: 'The company of a company-balance posting' }) companyId?: string;
  @ApiProperty({ example: 0 }) sequence!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: ['funding', 'row_transfer', 'withdrawal', 'margin_release', 'top_up', 'payout_reserve', 'payout_release', 'payout_paid'] }) kind!: string;
  @ApiProperty({ example: 'Leg A funded' }) memo!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) postedAt!: string;
  @ApiProperty({ description: 'The event that caused it' }) eventId!: string;
  @ApiProperty({ type: [LedgerEntryDto] }) entries!: LedgerEntryDto[];
}

/** The answer of both GET .../splits/:id/ledger routes (API key and session): the postings, or 404 for a Split the caller may not read. */
export const ApiSplitLedger = (summary: string): MethodDecorator =>
  applyDecorators(ApiOperation({ summary }), ApiErrors(SplitNotFoundError), ApiData(PostingDto, { isArray: true }));
