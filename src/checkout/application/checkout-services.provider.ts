import { PLATFORM } from '../../platform/platform.tokens';
import { Platform } from '../../platform/platform';
import { checkoutServices } from '../checkout.composition';
import { CheckoutPayments } from './checkout-payments';

/** The process-wide CheckoutPayments (shared with the process manager and the timers) for Nest handlers. */
export const checkoutPaymentsProvider = {
  provide: CheckoutPayments,
  useFactory: (platform: Platform) => checkoutServices(platform).payments,
  inject: [PLATFORM],
};
