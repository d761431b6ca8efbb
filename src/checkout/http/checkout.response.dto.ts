import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const PROVIDERS = ['CARD_PROCESSOR', 'WALLET_PROCESSOR'];
const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'FAILED', 'EXPIRED'];

export class CheckoutCreatedDto {
  @ApiProperty({ example: 'ord_00mwvg5jxbn5y14qsu18r2222e' }) orderId!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ enum: ['REDIRECT', 'EMBEDDED'] }) checkoutMode!: string;
  @ApiPropertyOptional({ description: 'REDIRECT: send the buyer here', example: 'https://pay.paysplit.example/pay/ord_...?t=...' }) redirectUrl?: string;
  @ApiPropertyOptional({ description: 'EMBEDDED: give it to checkout.js', example: 'ord_..._secret_...' }) clientSecret?: string;
}

export class OrderStatusDto {
  @ApiProperty({ enum: ORDER_STATUSES, description: 'PAID is the only fulfilment signal' }) status!: string;
  @ApiProperty({ example: '2500' }) amountMinorUnits!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ nullable: true, type: String }) subscriptionId!: string | null;
}

export class NextActionDto {
  @ApiProperty({ description: 'Send the buyer here to authenticate the card' }) redirectUrl!: string;
}

export class ConfirmResultDto {
  @ApiProperty({ enum: ['PAID', 'REQUIRES_ACTION'] }) status!: string;
  @ApiPropertyOptional({ type: NextActionDto, description: 'With REQUIRES_ACTION' }) nextAction?: NextActionDto;
}

export class CardSummaryDto {
  @ApiProperty({ example: 'visa' }) brand!: string;
  @ApiProperty({ example: '4242' }) last4!: string;
}

export class SubscriptionDto {
  @ApiProperty({ example: 'sub_wn9kizc2kyolk5k66t09sxftrb' }) subscriptionId!: string;
  @ApiProperty({ enum: ['ACTIVE', 'CANCELLED'] }) status!: string;
  @ApiProperty({ enum: ['MONTHLY', 'YEARLY'] }) intervalUnit!: string;
  @ApiProperty({ example: '2500' }) amountMinorUnits!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty() currentPeriodStart!: string;
  @ApiProperty() currentPeriodEnd!: string;
  @ApiProperty({ example: 0 }) consecutiveDeclines!: number;
  @ApiProperty({ type: CardSummaryDto }) card!: CardSummaryDto;
  @ApiProperty({ nullable: true, type: String }) cancelledAt!: string | null;
  @ApiProperty({ nullable: true, enum: ['PAYMENT_FAILED', 'BUYER_REQUEST'] }) cancellationReason!: string | null;
}

export class PaymentLinkCreatedDto {
  @ApiProperty({ example: 'vy5h04jz2xz6ev9jv9fq' }) slug!: string;
  @ApiProperty({ example: 'https://pay.paysplit.example/checkout/vy5h04jz2xz6ev9jv9fq' }) url!: string;
}
