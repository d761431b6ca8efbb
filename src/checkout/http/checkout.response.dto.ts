import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const PROVIDERS = ['CARD_PROCESSOR', 'WALLET_PROCESSOR'];
const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'FAILED', 'EXPIRED', 'PARTIALLY_REFUNDED', 'REFUNDED'];

export class CheckoutCreatedDto {
  @ApiProperty({ example: 'ord_00mwvg5jxbn5y14qsu18r2222e' }) orderId!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ enum: ['REDIRECT', 'EMBEDDED'] }) checkoutMode!: string;
  @ApiPropertyOptional({ description: 'REDIRECT: send the buyer here', example: 'https://pay.paysplit.example/pay/ord_...?t=...' }) redirectUrl?: string;
  @ApiPropertyOptional({ description: 'EMBEDDED: give it to checkout.js', example: 'ord_..._secret_...' }) clientSecret?: string;
}

export class OrderStatusDto {
  @ApiProperty({
    enum: ORDER_STATUSES,
    description: 'PAID is the only fulfilment signal; a paid order that refunds succeeded on shows PARTIALLY_REFUNDED, then REFUNDED once all of it went back',
  })
  status!: string;
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
  @ApiProperty({ nullable: true, enum: ['PAYMENT_FAILED', 'BUYER_REQUEST', 'MERCHANT_REQUEST'] }) cancellationReason!: string | null;
}

export class PaymentLinkCreatedDto {
  @ApiProperty({ example: 'vy5h04jz2xz6ev9jv9fq' }) slug!: string;
  @ApiProperty({ example: 'https://pay.paysplit.example/checkout/vy5h04jz2xz6ev9jv9fq' }) url!: string;
}

export class RenewalRefDto {
  @ApiProperty({ example: 'sub_wn9kizc2kyolk5k66t09sxftrb' }) subscriptionId!: string;
  @ApiProperty({ example: 1, description: 'The billing period this renewal charges (0 is the first order)' }) periodIndex!: number;
  @ApiProperty({ example: 1 }) attempt!: number;
}

export class DeclineDto {
  @ApiProperty({ example: 'insufficient_funds' }) declineCode!: string;
  @ApiProperty({ example: 'The card has insufficient funds' }) reason!: string;
}

/** An order as its merchant lists it (GET /api/commerce/checkout/orders): never the buyer's page token or client secret. */
export class MerchantOrderDto {
  @ApiProperty({ example: 'ord_00mwvg5jxbn5y14qsu18r2222e' }) id!: string;
  @ApiProperty({ enum: ORDER_STATUSES }) status!: string;
  @ApiProperty({ example: '1999' }) amountMinorUnits!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ enum: ['REDIRECT', 'EMBEDDED'] }) checkoutMode!: string;
  @ApiProperty({ example: 'https://merchant.example/thanks' }) returnUrl!: string;
  @ApiProperty({ nullable: true, type: String, example: 'cart-1042' }) externalOrderRef!: string | null;
  @ApiProperty({ nullable: true, enum: ['MONTHLY', 'YEARLY'] }) subscriptionIntervalUnit!: string | null;
  @ApiProperty({ nullable: true, type: String }) subscriptionId!: string | null;
  @ApiProperty({ nullable: true, type: RenewalRefDto, description: 'Set on an order a subscription renewal made' }) renewal!: RenewalRefDto | null;
  @ApiProperty({ nullable: true, type: CardSummaryDto }) card!: CardSummaryDto | null;
  @ApiProperty({ nullable: true, type: DeclineDto, description: 'The latest decline, if any' }) lastDecline!: DeclineDto | null;
  @ApiProperty({ nullable: true, type: String }) payoutId!: string | null;
  @ApiProperty() completed!: boolean;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) createdAt!: string;
  @ApiProperty({ nullable: true, type: String }) expiresAt!: string | null;
  @ApiProperty({ nullable: true, type: String }) paidAt!: string | null;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) updatedAt!: string;
  @ApiProperty({ example: '0', description: 'What refunds that succeeded returned to the buyer (issue 26)' }) refundedMinorUnits!: string;
  @ApiPropertyOptional({
    example: 'buyer@example.com',
    description: "The buyer's email (issue 29): the customerEmail you passed, or the one the buyer typed on a subscription order's hosted page. Absent without one.",
  })
  customerEmail?: string;
}

/** A subscription as its merchant lists it (GET /api/commerce/checkout/subscriptions). */
export class MerchantSubscriptionDto extends SubscriptionDto {
  @ApiProperty({ nullable: true, type: String, example: '2026-11-25T01:30:13.334Z', description: 'Null for subscriptions projected before it was kept' })
  createdAt!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'ord_00mwvg5jxbn5y14qsu18r2222e', description: 'The order whose payment started the subscription' })
  foundingOrderId!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'customer-42',
    description: "The merchant's externalOrderRef on the founding order: who the subscription is for, in the merchant's words",
  })
  externalOrderRef!: string | null;
  @ApiProperty({
    example: 'https://pay.paysplit.example/subscriptions/sub_wn9kizc2kyolk5k66t09sxftrb',
    description: "The buyer's page to read and cancel the subscription (linked from the receipt); put it in your renewal emails",
  })
  manageUrl!: string;
}

/** A payment link as its merchant lists it (GET /api/commerce/payment-links). */
export class PaymentLinkDto {
  @ApiProperty({ example: 'vy5h04jz2xz6ev9jv9fq' }) slug!: string;
  @ApiProperty({ example: 'https://pay.paysplit.example/checkout/vy5h04jz2xz6ev9jv9fq' }) url!: string;
  @ApiProperty({ example: 'Yoga class' }) title!: string;
  @ApiProperty({ example: '2500' }) amountMinorUnits!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ example: '2026-11-25T01:30:13.334Z' }) createdAt!: string;
}

/** One refund of an order (issue 26, docs/checkout.md#refunds). */
export class RefundDto {
  @ApiProperty({ example: 'rf_3k5m7o9q1s3u5w7y9a1c3e5g7i' }) refundId!: string;
  @ApiProperty({ example: 'ord_00mwvg5jxbn5y14qsu18r2222e' }) orderId!: string;
  @ApiProperty({ example: '1000' }) amountMinorUnits!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], description: 'pending until the processor answered' }) status!: string;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
  @ApiProperty({ nullable: true, type: String, example: null, description: 'With failed: the processor code (refund_declined, charge_not_captured)' }) failureCode!: string | null;
  @ApiProperty({ nullable: true, type: String, example: null }) failureReason!: string | null;
  @ApiProperty({ example: '2026-03-06T10:12:44.501Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-03-06T10:12:44.620Z' }) updatedAt!: string;
}
