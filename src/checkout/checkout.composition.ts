import { Platform } from '../platform/platform';
import { CheckoutPayments, ORDER_EXPIRY_TIMER, RENEWAL_TIMER } from './application/checkout-payments';
import { CheckoutProcessor } from './application/checkout.processor';
import { PaymentProcessorUnavailableError } from './domain/checkout.errors';
import { Provider } from './domain/checkout.events';
import { PaymentProcessor, PaymentProcessors } from './domain/payment-processor.port';
import { SandboxCardProcessor, SandboxWalletProcessor, StaticPaymentProcessors } from './domain/sandbox-processors';

export interface CheckoutServices {
  payments: CheckoutPayments;
  processor: CheckoutProcessor;
  processors: PaymentProcessors;
}

type PlatformParts = Omit<Platform, 'engine'>;
const built = new WeakMap<object, CheckoutServices>();

/** Outside sandbox mode no live adapter exists yet: payments answer 503 instead of pretending. */
class UnconfiguredProcessors implements PaymentProcessors {
  for(provider: Provider): PaymentProcessor {
    throw new PaymentProcessorUnavailableError(provider);
  }
}

/** Checkout's background parts (process manager, renewal and expiry timers), built once per process. */
export function checkoutServices(platform: PlatformParts): CheckoutServices {
  const existing = built.get(platform.timers);
  if (existing) return existing;
  const processors = platform.config.sandbox ? new StaticPaymentProcessors([new SandboxCardProcessor(), new SandboxWalletProcessor()]) : new UnconfiguredProcessors();
  const payments = new CheckoutPayments(platform.aggregates, platform.events, platform.timers, platform.clock, processors, platform.logger);
  platform.timers.register(ORDER_EXPIRY_TIMER, payments.onExpiryTimer);
  platform.timers.register(RENEWAL_TIMER, payments.onRenewalTimer);
  const services = { payments, processor: new CheckoutProcessor(payments), processors };
  built.set(platform.timers, services);
  return services;
}
