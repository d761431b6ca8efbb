import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  isEmail,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { isCentsString } from '../../platform/money/money';
import { PageQueryDto } from '../../platform/http/pagination';
import { CHECKOUT_MODES, CheckoutMode, INTERVAL_UNITS, IntervalUnit, ORDER_STATUSES, type OrderStatus, PROVIDERS, Provider } from '../domain/checkout.events';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../domain/subscription.events';

/** ISO 4217 codes the runtime knows (Intl), upper case. */
export const CURRENCY_CODES: readonly string[] = Intl.supportedValuesOf('currency');

/** A positive whole number of minor units as a string of digits, at most 10^15. */
export const isPositiveMinorUnits = (value: unknown): value is string => isCentsString(value) && value !== '0';
export const POSITIVE_MINOR_UNITS_MESSAGE = '$property must be a positive whole number of minor units as a string of digits (e.g. "1999")';

/** The longest returnUrl accepted. */
export const RETURN_URL_MAX_LENGTH = 2048;
/** An absolute https URL without credentials (docs/checkout.md#create-a-checkout: returnUrl is https). */
export function isHttpsUrl(value: unknown): value is string {
  return returnUrlOf(value)?.protocol === 'https:';
}
/** An absolute URL with a host, without credentials, of at most RETURN_URL_MAX_LENGTH characters (any scheme). */
export function isReturnUrlShape(value: unknown): value is string {
  return returnUrlOf(value) !== null;
}
/** The value parsed once (a checkout create checks every returnUrl), when it has the shape above; null otherwise. */
function returnUrlOf(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > RETURN_URL_MAX_LENGTH) return null;
  const url = URL.parse(value);
  return url !== null && url.hostname.length > 0 && url.username === '' && url.password === '' ? url : null;
}
export const HTTPS_URL_MESSAGE = '$property must be an absolute https:// URL';

export function IsPositiveMinorUnits(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isPositiveMinorUnits',
      target: object.constructor,
      propertyName,
      options: { message: POSITIVE_MINOR_UNITS_MESSAGE, ...options },
      validator: { validate: isPositiveMinorUnits },
    });
}

export const CURRENCY_MESSAGE = '$property must be an ISO 4217 currency code in upper case (e.g. "USD")';
const CURRENCY = { message: CURRENCY_MESSAGE };

/** Length bounds of the merchant's own references (externalOrderRef, idempotencyKey). */
export const REFERENCE_LENGTH = { min: 1, max: 255 } as const;

export const CUSTOMER_EMAIL_MAX_LENGTH = 254;
export const CUSTOMER_EMAIL_MESSAGE = `$property must be an email address of at most ${CUSTOMER_EMAIL_MAX_LENGTH} characters`;
/** The customerEmail rule, shared by the create-checkout body and the hosted pay form. */
export const isCustomerEmail = (value: unknown): value is string => typeof value === 'string' && value.length <= CUSTOMER_EMAIL_MAX_LENGTH && isEmail(value);

/**
 * The create-checkout body as OpenAPI shows it: a schema only, with no class-validator decorator.
 * `CreateCheckoutBodyPipe` is the one validator of this body (see that pipe for why); the schema below
 * and the pipe take their enums, bounds and rule functions from this file, so they cannot drift.
 */
export class CreateCheckoutRequestDto {
  @ApiProperty({ example: '1999', description: 'Positive integer string in minor units' })
  amountMinorUnits!: string;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 currency code' })
  currency!: string;

  @ApiProperty({ enum: PROVIDERS })
  provider!: Provider;

  @ApiProperty({
    example: 'https://shop.example/thank-you',
    maxLength: RETURN_URL_MAX_LENGTH,
    description: 'HTTPS (in the sandbox, http://localhost too); the buyer lands here with ?order=<orderId>',
  })
  returnUrl!: string;

  @ApiPropertyOptional({ enum: CHECKOUT_MODES, default: 'REDIRECT', description: 'EMBEDDED only with CARD_PROCESSOR (422 otherwise)' })
  checkoutMode?: CheckoutMode;

  @ApiPropertyOptional({ example: 'order-1042', minLength: REFERENCE_LENGTH.min, maxLength: REFERENCE_LENGTH.max })
  externalOrderRef?: string;

  @ApiPropertyOptional({
    example: 'order-1042-attempt-1',
    minLength: REFERENCE_LENGTH.min,
    maxLength: REFERENCE_LENGTH.max,
    description: 'Same key (per company) returns the existing order: 200 + Idempotent-Replayed: true',
  })
  idempotencyKey?: string;

  @ApiPropertyOptional({ enum: INTERVAL_UNITS, description: 'Opt into recurring billing; CARD_PROCESSOR only (422 otherwise)' })
  subscriptionIntervalUnit?: IntervalUnit;

  @ApiPropertyOptional({
    example: 'buyer@example.com',
    maxLength: CUSTOMER_EMAIL_MAX_LENGTH,
    description:
      "The buyer's email. A subscription's renewal and failed-renewal emails go there; the hosted page of a subscription order asks for it (prefilled with this). Seen by this merchant only.",
  })
  customerEmail?: string;
}

export class CardDto {
  @ApiProperty({ example: '4242424242424242' })
  @IsDefined()
  @IsString()
  @Matches(/^\d{12,19}$/, { message: '$property must be 12 to 19 digits' })
  number!: string;

  @ApiProperty({ example: 12 })
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(12)
  expMonth!: number;

  @ApiProperty({ example: 2030 })
  @IsDefined()
  @IsInt()
  @Min(2000)
  @Max(2100)
  expYear!: number;

  @ApiProperty({ example: '123' })
  @IsDefined()
  @IsString()
  @Matches(/^\d{3,4}$/, { message: '$property must be 3 or 4 digits' })
  cvc!: string;
}

export class ConfirmPaymentRequestDto {
  @ApiProperty({ description: 'The clientSecret returned by create (EMBEDDED)' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  clientSecret!: string;

  @ApiProperty({ type: CardDto })
  @IsDefined()
  // ValidateNested alone lets an array through (it validates each element); the card must be one object.
  @IsObject()
  @ValidateNested()
  @Type(() => CardDto)
  card!: CardDto;
}

export class CreatePaymentLinkRequestDto {
  @ApiProperty({ example: 'Yoga class' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title!: string;

  @ApiProperty({ example: '2500' })
  @IsDefined()
  @IsPositiveMinorUnits()
  amountMinorUnits!: string;

  @ApiProperty({ example: 'USD' })
  @IsDefined()
  @IsIn(CURRENCY_CODES, CURRENCY)
  currency!: string;

  @ApiProperty({ enum: PROVIDERS })
  @IsDefined()
  @IsIn(PROVIDERS)
  provider!: Provider;
}

export class OrderListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATUSES, description: 'Only orders in this status' })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @ApiPropertyOptional({
    description: 'Only the orders with exactly this externalOrderRef (the merchant finds an order by its own reference; issue 29 item 6)',
    example: 'order-1042',
  })
  @IsOptional()
  @IsString()
  @MinLength(REFERENCE_LENGTH.min)
  @MaxLength(REFERENCE_LENGTH.max)
  externalOrderRef?: string;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'Only orders created at or after this ISO 8601 date or time (a date is its midnight UTC)' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date or time, e.g. 2026-11-01 or 2026-11-01T09:00:00Z' })
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-01', description: 'Only orders created before this ISO 8601 date or time (a date is its midnight UTC); not before from' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date or time, e.g. 2026-12-01 or 2026-12-01T09:00:00Z' })
  to?: string;
}

export class SubscriptionListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES, description: 'Only subscriptions in this status' })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}

/** POST .../orders/:orderId/refunds (issue 26, docs/checkout.md#refunds). */
export class RefundOrderRequestDto {
  @ApiProperty({ example: '1000', description: 'Positive integer string in minor units; at most what the order still has refundable (422 CHECKOUT_REFUND_EXCEEDS_CAPTURED)' })
  @IsDefined()
  @IsPositiveMinorUnits()
  amountMinorUnits!: string;

  @ApiPropertyOptional({ example: 'Returned by the buyer', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;

  @ApiProperty({
    example: 'refund-order-1042-1',
    minLength: REFERENCE_LENGTH.min,
    maxLength: REFERENCE_LENGTH.max,
    description: 'One refund per key and order: the same key and request answer the same refund again (200); another request with it is 409 IDEMPOTENCY_KEY_REUSED',
  })
  @IsDefined()
  @IsString()
  @MinLength(REFERENCE_LENGTH.min)
  @MaxLength(REFERENCE_LENGTH.max)
  idempotencyKey!: string;
}
