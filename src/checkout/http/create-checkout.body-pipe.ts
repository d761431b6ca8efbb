import { Inject, Injectable, PipeTransform } from '@nestjs/common';
import type { AppConfig } from '../../platform/config/app-config';
import { isLoopbackHttp, SANDBOX_LOOPBACK_NOTE } from '../../platform/http/sandbox-loopback';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { BodyCheck, oneOf, stringOfLength } from '../../platform/http/body-check';
import { CHECKOUT_MODES, INTERVAL_UNITS, PROVIDERS } from '../domain/checkout.events';
import {
  CreateCheckoutRequestDto,
  CURRENCY_CODES,
  CURRENCY_MESSAGE,
  CUSTOMER_EMAIL_MESSAGE,
  isCustomerEmail,
  HTTPS_URL_MESSAGE,
  isHttpsUrl,
  isPositiveMinorUnits,
  isReturnUrlShape,
  POSITIVE_MINOR_UNITS_MESSAGE,
  REFERENCE_LENGTH,
} from './checkout.request.dto';

/**
 * The checked body. A type, not the DTO class: TypeScript records a type's metadata as `Object`, and the
 * global ValidationPipe skips `Object` parameters, so this pipe alone checks the body.
 */
export type CreateCheckoutBody = Pick<CreateCheckoutRequestDto, keyof CreateCheckoutRequestDto>;

const FIELDS: readonly (keyof CreateCheckoutBody)[] = [
  'amountMinorUnits',
  'currency',
  'provider',
  'returnUrl',
  'checkoutMode',
  'externalOrderRef',
  'idempotencyKey',
  'subscriptionIntervalUnit',
  'customerEmail',
];
const isProvider = oneOf(PROVIDERS);
const isCurrency = oneOf(CURRENCY_CODES);
const isCheckoutMode = oneOf(CHECKOUT_MODES);
const isIntervalUnit = oneOf(INTERVAL_UNITS);
const isReference = stringOfLength(REFERENCE_LENGTH.min, REFERENCE_LENGTH.max);
const REFERENCE_MESSAGE = `$property must be a string of ${REFERENCE_LENGTH.min} to ${REFERENCE_LENGTH.max} characters`;
const oneOfMessage = (values: readonly string[]) => `$property must be one of the following values: ${values.join(', ')}`;
const PROVIDER_MESSAGE = oneOfMessage(PROVIDERS);
const CHECKOUT_MODE_MESSAGE = oneOfMessage(CHECKOUT_MODES);
const INTERVAL_UNIT_MESSAGE = oneOfMessage(INTERVAL_UNITS);

/**
 * The one validator of the create-checkout body (`CreateCheckoutRequestDto` only describes it for
 * OpenAPI): the rules, with the same 400 envelope as the global ValidationPipe. Create-checkout is the
 * hottest call of the service (a merchant's server makes one per buyer), and class-validator with
 * class-transformer took about 13% of the API thread in a CPU profile of `npm run bench -- checkout`;
 * these plain checks take about 2%.
 */
@Injectable()
export class CreateCheckoutBodyPipe implements PipeTransform<unknown, CreateCheckoutBody> {
  /** The returnUrl rule: https, or also loopback http in the sandbox (platform/http/sandbox-loopback.ts). */
  private readonly returnUrl: { test: (value: unknown) => value is string; message: string };

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.returnUrl = config.sandbox
      ? { test: (value): value is string => isHttpsUrl(value) || (isLoopbackHttp(value) && isReturnUrlShape(value)), message: HTTPS_URL_MESSAGE + SANDBOX_LOOPBACK_NOTE }
      : { test: isHttpsUrl, message: HTTPS_URL_MESSAGE };
  }

  transform(body: unknown): CreateCheckoutBody {
    const check = new BodyCheck(body, FIELDS);
    const request: CreateCheckoutBody = {
      amountMinorUnits: check.required('amountMinorUnits', isPositiveMinorUnits, POSITIVE_MINOR_UNITS_MESSAGE),
      currency: check.required('currency', isCurrency, CURRENCY_MESSAGE),
      provider: check.required('provider', isProvider, PROVIDER_MESSAGE),
      returnUrl: check.required('returnUrl', this.returnUrl.test, this.returnUrl.message),
      checkoutMode: check.optional('checkoutMode', isCheckoutMode, CHECKOUT_MODE_MESSAGE),
      externalOrderRef: check.optional('externalOrderRef', isReference, REFERENCE_MESSAGE),
      idempotencyKey: check.optional('idempotencyKey', isReference, REFERENCE_MESSAGE),
      subscriptionIntervalUnit: check.optional('subscriptionIntervalUnit', isIntervalUnit, INTERVAL_UNIT_MESSAGE),
      customerEmail: check.optional('customerEmail', isCustomerEmail, CUSTOMER_EMAIL_MESSAGE),
    };
    check.done();
    return request;
  }
}
