import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, registerDecorator, ValidationOptions } from 'class-validator';
import { isCentsString } from '../../platform/money/money';
import { PageQueryDto } from '../../platform/http/pagination';
import { isLoopbackHttp, SANDBOX_LOOPBACK_NOTE } from '../../platform/http/sandbox-loopback';
import { validationFailed } from '../../platform/http/validation';
import { SESSION_STATUSES, SessionStatus } from '../domain/payout-embed.events';

/** ISO 4217 codes the runtime knows (Intl), upper case. */
export const CURRENCY_CODES: readonly string[] = Intl.supportedValuesOf('currency');
export const EXPIRY_SECONDS = { min: 900, max: 2_592_000, default: 604_800 } as const;
export const MAX_ALLOWED_ORIGINS = 10;
const URL_MAX_LENGTH = 2048;

/** An https origin exactly: scheme and host (and port), no path, query, fragment or credentials. */
export function isHttpsOrigin(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 255) return false;
  const url = URL.parse(value);
  return url !== null && url.protocol === 'https:' && url.hostname.length > 0 && url.origin === value.replace(/\/$/, '').toLowerCase();
}

/** An absolute https URL without credentials. */
export function isHttpsUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > URL_MAX_LENGTH) return false;
  const url = URL.parse(value);
  return url !== null && url.protocol === 'https:' && url.hostname.length > 0 && url.username === '' && url.password === '';
}

function rule(name: string, message: string, validate: (value: unknown) => boolean, options?: ValidationOptions) {
  return (object: object, propertyName: string) => registerDecorator({ name, target: object.constructor, propertyName, options: { message, ...options }, validator: { validate } });
}

const IsPositiveMinorUnits = () =>
  rule('isPositiveMinorUnits', '$property must be a positive whole number of minor units as a string of digits (e.g. "2500")', (v) => isCentsString(v) && v !== '0');
export const HTTPS_ORIGIN_MESSAGE = 'each value in $property must be an https origin such as "https://platform.example" (no path)';
export const HTTPS_URL_MESSAGE = '$property must be an absolute https:// URL';
// Loopback http passes here and is refused outside the sandbox by the controller (platform/http/sandbox-loopback.ts).
const IsHttpsOrigin = () =>
  rule('isHttpsOrigin', HTTPS_ORIGIN_MESSAGE + SANDBOX_LOOPBACK_NOTE, (v) => isHttpsOrigin(v) || (isLoopbackHttp(v) && isHttpsOrigin(String(v).replace(/^http:/, 'https:'))), {
    each: true,
  });
const IsHttpsUrl = () =>
  rule('isHttpsUrl', HTTPS_URL_MESSAGE + SANDBOX_LOOPBACK_NOTE, (v) => isHttpsUrl(v) || (isLoopbackHttp(v) && isHttpsUrl(String(v).replace(/^http:/, 'https:'))));

/** Loopback http values of a create body: refused outside the sandbox (issue 29 item 10). */
export function refuseLoopbackOutsideSandbox(body: Pick<CreatePayoutEmbedSessionRequestDto, 'allowedOrigins' | 'returnUrl'>): void {
  const details = [
    ...(body.allowedOrigins ?? []).filter(isLoopbackHttp).map(() => ({ field: 'allowedOrigins', message: HTTPS_ORIGIN_MESSAGE.replace('$property', 'allowedOrigins') })),
    ...(isLoopbackHttp(body.returnUrl) ? [{ field: 'returnUrl', message: HTTPS_URL_MESSAGE.replace('$property', 'returnUrl') }] : []),
  ];
  if (details.length > 0) throw validationFailed(details);
}

export class CreatePayoutEmbedSessionRequestDto {
  @ApiProperty({ example: 'ann@example.com', description: 'Who gets the money; the claim code goes to this address' })
  @IsEmail()
  @MaxLength(254)
  recipientEmail!: string;

  @ApiPropertyOptional({ example: 'Ann Lee', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  recipientName?: string;

  @ApiProperty({ example: '2500', description: 'Positive integer string in minor units; reserved from the company balance at once' })
  @IsPositiveMinorUnits()
  amountCents!: string;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 currency code in upper case' })
  @IsIn(CURRENCY_CODES, { message: '$property must be an ISO 4217 currency code in upper case (e.g. "USD")' })
  currency!: string;

  @ApiPropertyOptional({ example: 'Contest prize, March', maxLength: 500, description: 'Shown to the recipient' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ example: 'prize-2026-03-ann', minLength: 1, maxLength: 255, description: 'Per company: a retry with the same key and body returns the same session' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey?: string;

  @ApiPropertyOptional({ example: 604800, minimum: EXPIRY_SECONDS.min, maximum: EXPIRY_SECONDS.max, default: EXPIRY_SECONDS.default })
  @IsOptional()
  @IsInt()
  @Min(EXPIRY_SECONDS.min)
  @Max(EXPIRY_SECONDS.max)
  expiresInSeconds?: number;

  @ApiPropertyOptional({
    type: [String],
    example: ['https://platform.example'],
    maxItems: MAX_ALLOWED_ORIGINS,
    description:
      "https origins allowed to frame the embed page (CSP frame-ancestors) and to receive its postMessage; none: the page can't be framed. In the sandbox, http loopback origins (http://localhost:5173) too",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_ORIGINS)
  @IsHttpsOrigin()
  allowedOrigins?: string[];

  @ApiPropertyOptional({
    example: 'https://platform.example/payouts/done',
    description: 'https (in the sandbox, http://localhost too); linked at the end when the page is opened directly',
  })
  @IsOptional()
  @IsHttpsUrl()
  returnUrl?: string;
}

export class ListPayoutEmbedSessionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SESSION_STATUSES })
  @IsOptional()
  @IsIn(SESSION_STATUSES)
  status?: SessionStatus;
}

export class ClaimPayoutRequestDto {
  @ApiProperty({ example: '123456', description: 'The 6-digit code emailed to the recipient' })
  @IsString()
  @Matches(/^\d{6}$/, { message: '$property must be the 6 digits from the email' })
  code!: string;
}

export class NameWalletRequestDto {
  @ApiProperty({ example: 'ann@wallet.example', description: "The wallet's email; the sandbox rail refuses one whose local part contains +fail" })
  @IsEmail()
  @MaxLength(254)
  walletEmail!: string;
}

export class TopUpBalanceRequestDto {
  @ApiProperty({ example: '100000' })
  @IsPositiveMinorUnits()
  amountCents!: string;

  @ApiProperty({ example: 'USD' })
  @IsIn(CURRENCY_CODES, { message: '$property must be an ISO 4217 currency code in upper case (e.g. "USD")' })
  currency!: string;
}
