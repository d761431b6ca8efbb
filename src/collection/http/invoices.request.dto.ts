import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { COLLECTION_STATUS_LIST, COLLECTION_STATUSES } from '../../split';
import { PageNumberQueryDto } from '../../platform/http/pagination';
import { INVOICE_PAGE_SIZE } from '../application/invoice-queries';

/** Digits only, no sign, no decimals, no leading zeros. */
const MINOR_UNITS = /^[1-9][0-9]{0,17}$/;
const MINOR_UNITS_MESSAGE = '$property must be a positive string of digits in minor units (e.g. "12500" for $125.00)';

/** `?status=&page=&limit=` of the enterprise's bill list; without `limit` a page holds 500, the whole list before it was paged. */
export class InvoiceListQueryDto extends PageNumberQueryDto {
  @ApiPropertyOptional({
    example: 'OPEN,PARTIALLY_PAID',
    description: `Only invoices in one of these collection statuses, comma-separated (${COLLECTION_STATUSES.join(', ')})`,
  })
  @IsOptional()
  @Matches(COLLECTION_STATUS_LIST, { message: `status must be a comma-separated list of ${COLLECTION_STATUSES.join(', ')}` })
  status?: string;

  @ApiPropertyOptional({ default: INVOICE_PAGE_SIZE, minimum: 1, maximum: INVOICE_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(INVOICE_PAGE_SIZE)
  limit?: number;
}

export class PayInvoiceRequestDto {
  @ApiProperty({ example: '12500', description: 'What to pay now, in minor units: at most what is still owed (partial payments allowed)' })
  @IsDefined()
  @IsString()
  @Matches(MINOR_UNITS, { message: MINOR_UNITS_MESSAGE })
  amountCents!: string;

  @ApiProperty({ example: 'bill-2026-03-pay-1', description: 'Unique per payment: a retry with the same key and amount takes nothing twice' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey!: string;
}

export class BankTransferRequestDto {
  @ApiProperty({ example: 'PS-8K2M4Q6S8U0W', description: "The remittance reference the payer quoted (an invoice's paymentReference)" })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(140)
  reference!: string;

  @ApiProperty({ example: '12500', description: 'Amount received, in minor units' })
  @IsDefined()
  @IsString()
  @Matches(MINOR_UNITS, { message: MINOR_UNITS_MESSAGE })
  amountCents!: string;

  @ApiPropertyOptional({ example: 'USD', description: "Currency received (default: the invoice's); another than the invoice's parks the transfer" })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/)
  currency?: string;
}

const TRANSFER_STATUSES = ['MATCHED', 'PARKED', 'APPLIED', 'RETURNED'] as const;

export class BankTransferListQueryDto {
  @ApiPropertyOptional({ enum: TRANSFER_STATUSES, description: 'PARKED: transfers waiting for review; APPLIED or RETURNED: parked ones resolved' })
  @IsOptional()
  @IsIn(TRANSFER_STATUSES)
  status?: (typeof TRANSFER_STATUSES)[number];
}

/** Issue 27: the enterprise claims a parked transfer it sent, quoting what its bank sent. */
export class ApplyParkedTransferRequestDto {
  @ApiProperty({ example: 'btr_00mwqa4e2b6d8f0h2j4l6n8p0r', description: 'The parked transfer (GET /api/sandbox/bank-transfers?status=PARKED in the sandbox)' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  transferId!: string;

  @ApiProperty({ example: 'INV 2026-03 ACME', description: 'The reference the transfer carried, as sent (spaces and case ignored): with the amount, the proof it is yours' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(140)
  reference!: string;

  @ApiProperty({ example: '12500', description: 'The amount sent, in minor units, exactly' })
  @IsDefined()
  @IsString()
  @Matches(MINOR_UNITS, { message: MINOR_UNITS_MESSAGE })
  amountCents!: string;
}

export class CardPaymentRequestDto {
  @ApiPropertyOptional({ example: '12500', description: 'What to pay by card now, in minor units (default: all that is owed; at most that)' })
  @IsOptional()
  @IsString()
  @Matches(MINOR_UNITS, { message: MINOR_UNITS_MESSAGE })
  amountCents?: string;

  @ApiPropertyOptional({ enum: ['CARD_PROCESSOR', 'WALLET_PROCESSOR'], default: 'CARD_PROCESSOR' })
  @IsOptional()
  @IsIn(['CARD_PROCESSOR', 'WALLET_PROCESSOR'])
  provider?: 'CARD_PROCESSOR' | 'WALLET_PROCESSOR';
}
