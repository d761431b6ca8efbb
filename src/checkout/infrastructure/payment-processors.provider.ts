import { Provider as NestProvider } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { PaymentProcessorUnavailableError } from '../domain/checkout.errors';
import { Provider } from '../domain/checkout.events';
import { PAYMENT_PROCESSORS, PaymentProcessor, PaymentProcessors } from '../domain/payment-processor.port';
import { OperationalChargeBook, SandboxCardProcessor, SandboxWalletProcessor, StaticPaymentProcessors } from './sandbox-processors';

/** Outside sandbox mode no live adapter exists yet: payments answer 503 instead of pretending. */
class UnconfiguredProcessors implements PaymentProcessors {
  for(provider: Provider): PaymentProcessor {
    throw new PaymentProcessorUnavailableError(provider);
  }
}

export const paymentProcessorsProvider: NestProvider = {
  provide: PAYMENT_PROCESSORS,
  useFactory: (config: AppConfig, store: OperationalStore) => {
    if (!config.sandbox) return new UnconfiguredProcessors();
    const book = new OperationalChargeBook(store);
    const options = { delayMs: config.sandboxProcessorDelayMs };
    return new StaticPaymentProcessors([new SandboxCardProcessor(book, options), new SandboxWalletProcessor(book, options)]);
  },
  inject: [APP_CONFIG, OPERATIONAL_STORE],
};
