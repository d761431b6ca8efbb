import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsInt,
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
import { CHECKOUT_MODES, CheckoutMode, INTERVAL_UNITS, IntervalUnit, PROVIDERS, Provider } from '../domain/checkout.events';

/** ISO 4217 codes the runtime knows (Intl), upper case. */
export const CURRENCY_CODES: readonly string[] = Intl.supportedValuesOf('currency');

/** A positive whole number of minor units as a string of digits, at most 10^15. */
export function IsPositiveMinorUnits(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isPositiveMinorUnits',
      target: object.constructor,
      propertyName,
      options: { message: '$property must be a positive whole number of minor units as a string of digits (e.g. "1999")', ...options },
      validator: { validate: (value: unknown) => isCentsString(value) && value !== '0' },
    });
}

/** An absolute https URL (spec 4.1, 8: returnUrl scheme is HTTPS). */
export function IsHttpsUrl(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isHttpsUrl',
      target: object.constructor,
      propertyName,
      options: { message: '$property must be an absolute https:// URL', ...options },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || value.length > 2048) return false;
          try {
            const url = new URL(value);
            return url.protocol === 'https:' && url.hostname.length > 0 && url.username === '' && url.password === '';
          } catch {
            return false;
          }
        },
      },
    });
}

const CURRENCY = { message: '$property must be an ISO 4217 currency code in upper case (e.g. "USD")' };

export class CreateCheckoutRequestDto {
  @ApiProperty({ example: '1999', description: 'Positive integer string in minor units' })
  @IsDefined()
  @IsPositiveMinorUnits()
  amountMinorUnits!: string;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 currency code' })
  @IsDefined()
  @IsIn(CURRENCY_CODES, CURRENCY)
  currency!: string;

  @ApiProperty({ enum: PROVIDERS })
  @IsDefined()
  @IsIn(PROVIDERS)
  provider!: Provider;

  @ApiProperty({ example: 'https://shop.example/thank-you', description: "HTTPS; the buyer lands here with ?order=<orderId>" })
  @IsDefined()
  @IsHttpsUrl()
  returnUrl!: string;

  @ApiPropertyOptional({ enum: CHECKOUT_MODES, default: 'REDIRECT', description: 'EMBEDDED only with CARD_PROCESSOR (422 otherwise)' })
  @IsOptional()
  @IsIn(CHECKOUT_MODES)
  checkoutMode?: CheckoutMode;

  @ApiPropertyOptional({ example: 'order-1042' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  externalOrderRef?: string;

  @ApiPropertyOptional({ example: 'order-1042-attempt-1', description: 'Same key (per company) returns the existing order: 200 + Idempotent-Replayed: true' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey?: string;

  @ApiPropertyOptional({ enum: INTERVAL_UNITS, description: 'Opt into recurring billing; CARD_PROCESSOR only (422 otherwise)' })
  @IsOptional()
  @IsIn(INTERVAL_UNITS)
  subscriptionIntervalUnit?: IntervalUnit;
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
