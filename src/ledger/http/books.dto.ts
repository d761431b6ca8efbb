import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE_SIZE } from '../../platform/http/pagination';
import { BalanceTransactionView, StatementView } from '../application/books.query';

const CURRENCY = /^[A-Z]{3}$/;
const CURRENCY_MESSAGE = '$property must be an ISO 4217 currency code in upper case (e.g. "USD")';

export class BalanceTransactionsQueryDto {
  @ApiPropertyOptional({ example: 'USD' })
  @IsOptional()
  @Matches(CURRENCY, { message: CURRENCY_MESSAGE })
  currency?: string;

  @ApiPropertyOptional({ example: 'row_transfer', description: 'Only lines of postings of this kind (funding, row_transfer, top_up, payout_reserve, ...)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  type?: string;

  @ApiPropertyOptional({ example: 'company_balance', description: 'Only lines on this account: its kind (company_balance) or the whole account (company_balance:co_...)' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  account?: string;

  @ApiPropertyOptional({ example: 'spl_01jd8x0000000000000000000a', description: 'Only lines of postings that belong to this spl_, dst_, ord_, pes_, inv_ or po_ id' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  source?: string;

  @ApiPropertyOptional({ example: '2026-11-01T00:00:00.000Z', description: 'Posted at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00.000Z', description: 'Posted before this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ example: 'bt_1234_1', description: 'The id of the last row of the previous page: the next (older) page starts after it' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  cursor?: string;

  @ApiPropertyOptional({
    default: 20,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: 'Rows per page; a page shorter than this is the last. Ignored by the CSV export, which holds every row',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

export class StatementsQueryDto {
  @ApiPropertyOptional({ example: 'company_balance', description: "One account's kind (company_balance) or the whole account; all the caller's accounts if absent" })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  account?: string;

  @ApiPropertyOptional({ example: 'USD' })
  @IsOptional()
  @Matches(CURRENCY, { message: CURRENCY_MESSAGE })
  currency?: string;

  @ApiProperty({ example: '2026-11-01T00:00:00.000Z', description: 'Start of the period (inclusive)' })
  @IsISO8601({ strict: true })
  from!: string;

  @ApiProperty({ example: '2026-12-01T00:00:00.000Z', description: 'End of the period (exclusive)' })
  @IsISO8601({ strict: true })
  to!: string;
}

export class BalanceAsOfQueryDto {
  @ApiPropertyOptional({ example: '2026-11-22T10:00:00.000Z', description: 'The balance as it was at this moment (from the ledger); now if absent' })
  @IsOptional()
  @IsISO8601({ strict: true })
  asOf?: string;
}

export class BalanceTransactionDto implements BalanceTransactionView {
  @ApiProperty({ example: 'bt_1234_1', description: 'The line id; pass it as `cursor` to read the rows after it' })
  id!: string;
  @ApiProperty({ example: 'company_balance:co_01jd8x0000000000000000000a' })
  account!: string;
  @ApiProperty({ example: 'company_balance' })
  accountType!: string;
  @ApiProperty({ example: 'USD' })
  currency!: string;
  @ApiProperty({ example: '-10000', description: 'Signed minor units: what the line added to (or took from) the account holder' })
  amountCents!: string;
  @ApiProperty({ example: '40000', description: "The account's balance after this line" })
  balanceAfterCents!: string;
  @ApiProperty({ example: 'row_transfer', description: 'The posting kind' })
  type!: string;
  @ApiProperty({ example: 'spl_01jd8x0000000000000000000a', description: 'The spl_, dst_, ord_, pes_, inv_, po_ (or top_) id the posting belongs to' })
  source!: string;
  @ApiProperty({ example: 'spl_01jd8x0000000000000000000a:0002' })
  postingId!: string;
  @ApiProperty({ example: '0193a7c4-...', description: 'The event that caused the posting' })
  eventId!: string;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  postedAt!: string;
  @ApiProperty({ example: 'Row dst_... transferred to its contractor' })
  description!: string;
}

export class StatementTotalDto {
  @ApiProperty({ example: 'row_transfer' })
  type!: string;
  @ApiProperty({ example: 3 })
  count!: number;
  @ApiProperty({ example: '-18000' })
  amountCents!: string;
}

export class StatementDto implements StatementView {
  @ApiProperty({ example: 'company_balance:co_01jd8x0000000000000000000a' })
  account!: string;
  @ApiProperty({ example: 'company_balance' })
  accountType!: string;
  @ApiProperty({ example: 'USD' })
  currency!: string;
  @ApiProperty({ example: '2026-11-01T00:00:00.000Z' })
  from!: string;
  @ApiProperty({ example: '2026-12-01T00:00:00.000Z' })
  to!: string;
  @ApiProperty({ example: '0', description: 'The balance at `from`' })
  openingBalanceCents!: string;
  @ApiProperty({ example: '4000', description: 'The sum of the lines' })
  netChangeCents!: string;
  @ApiProperty({ example: '4000', description: 'The balance after the last line of the period: always openingBalanceCents + netChangeCents' })
  closingBalanceCents!: string;
  @ApiProperty({ type: [StatementTotalDto] })
  totals!: StatementTotalDto[];
  @ApiProperty({ type: [BalanceTransactionDto], description: 'Every line of the period, oldest first' })
  lines!: BalanceTransactionDto[];
}
