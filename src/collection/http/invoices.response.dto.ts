import { ApiProperty } from '@nestjs/swagger';
import { COLLECTION_STATUSES, PAYMENT_METHODS, REMINDERS } from '../domain/invoice.events';

const nullableString = { nullable: true, type: String } as const;

export class InvoicePaymentDto {
  @ApiProperty({ example: 'ipm_3k9x0q2m7a1c5v8b4n6z0p2r4t', description: 'The balance payment, card order (ord_) or bank transfer (btr_)' }) paymentId!: string;
  @ApiProperty({ enum: PAYMENT_METHODS }) method!: string;
  @ApiProperty({ example: '12500' }) amountCents!: string;
  @ApiProperty({ example: '12500', description: 'What reduced the amount owed' }) appliedCents!: string;
  @ApiProperty({ example: '0', description: "Beyond what was owed: credited to the enterprise's balance" }) overpaidCents!: string;
  @ApiProperty({ example: '2026-03-20T10:00:00.000Z' }) receivedAt!: string;
}

export class InvoiceReminderDto {
  @ApiProperty({ enum: REMINDERS }) reminder!: string;
  @ApiProperty({ example: '2026-03-29T09:15:27.402Z' }) sentAt!: string;
}

export class BankDetailsDto {
  @ApiProperty({ example: 'Paysplit Collections (sandbox)' }) accountName!: string;
  @ApiProperty({ example: 'GB33PSPL00000012345678' }) iban!: string;
  @ApiProperty({ example: 'PSPLGB2L' }) bic!: string;
  @ApiProperty({ example: 'PS-8K2M4Q6S8U0W', description: 'Quote it on the transfer' }) reference!: string;
}

/** An invoice (docs/api.md#invoices). */
export class InvoiceViewDto {
  @ApiProperty({ example: 'inv_mjmio48of2zpddic303ehv3nfd' }) id!: string;
  @ApiProperty({ example: 'spl_mjmio48of2zpddic303ehv3nfd' }) splitId!: string;
  @ApiProperty() smeCompanyId!: string;
  @ApiProperty() enterpriseCompanyId!: string;
  @ApiProperty({ description: 'The AP contact the invoice and its reminders are mailed to' }) apContactBusinessProfileId!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '45450', description: 'Total + enterprise fee, minor units' }) amountCents!: string;
  @ApiProperty({ example: '0' }) paidCents!: string;
  @ApiProperty({ example: '45450' }) outstandingCents!: string;
  @ApiProperty({ enum: COLLECTION_STATUSES }) status!: string;
  @ApiProperty({ example: 'PS-8K2M4Q6S8U0W' }) paymentReference!: string;
  @ApiProperty({ example: '2026-03-02T09:15:27.402Z', description: 'When the Split funded' }) issuedAt!: string;
  @ApiProperty({ example: '2026-04-01T09:15:27.402Z', description: "Funding + the enterprise's net terms" }) dueAt!: string;
  @ApiProperty(nullableString) paidAt!: string | null;
  @ApiProperty(nullableString) overdueAt!: string | null;
  @ApiProperty({ type: [InvoicePaymentDto] }) payments!: InvoicePaymentDto[];
  @ApiProperty({ type: [InvoiceReminderDto] }) reminders!: InvoiceReminderDto[];
  @ApiProperty({ example: 'http://localhost:3000/dashboard/bills?invoice=inv_mjmio48of2zpddic303ehv3nfd' }) payUrl!: string;
  @ApiProperty({ type: BankDetailsDto }) bankTransfer!: BankDetailsDto;
}

export class BankTransferDto {
  @ApiProperty({ example: 'btr_00mwqa4e2b6d8f0h2j4l6n8p0r' }) id!: string;
  @ApiProperty({ example: 'PS-8K2M4Q6S8U0W' }) reference!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '12500' }) amountCents!: string;
  @ApiProperty({
    enum: ['MATCHED', 'PARKED', 'APPLIED', 'RETURNED'],
    description: 'MATCHED or PARKED as received; a parked one later APPLIED to an invoice or RETURNED to its sender',
  })
  status!: string;
  @ApiProperty(nullableString) invoiceId!: string | null;
  @ApiProperty({ ...nullableString, example: 'unknown reference' }) parkedReason!: string | null;
  @ApiProperty({ example: '2026-03-20T10:00:00.000Z' }) receivedAt!: string;
  @ApiProperty({ ...nullableString, example: null, description: 'When a parked transfer was applied or returned' }) resolvedAt!: string | null;
}

export class CardPaymentStartedDto {
  @ApiProperty({ example: 'inv_mjmio48of2zpddic303ehv3nfd' }) invoiceId!: string;
  @ApiProperty({ example: 'ord_4k2m9x0q7a1c5v8b4n6z0p2r4t' }) orderId!: string;
  @ApiProperty({ example: '45450' }) amountCents!: string;
  @ApiProperty({ example: 'http://localhost:3000/pay/ord_4k2m9x0q7a1c5v8b4n6z0p2r4t?t=...', description: 'The hosted page to pay on' }) redirectUrl!: string;
}
