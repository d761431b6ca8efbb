import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { sha256Hex } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { TimerWorker } from '../../platform/timers/timer-worker';
import { PaymentLinkOrdersLimitedError } from '../domain/checkout.errors';

/** Per client address: orders started on any payment link in the current window. */
export const PAYMENT_LINK_ORDERS_BY_ADDRESS = 'payment_link_orders_address';
/** Per payment link: orders started on it in the current window, whoever started them. */
export const PAYMENT_LINK_ORDERS_BY_LINK = 'payment_link_orders_link';
export const PAYMENT_LINK_WINDOW_SECONDS = 600;

/**
 * Payment links take no credential (the buyer is anyone on the web), so starting orders on them is
 * limited: PAYMENT_LINK_ORDERS_PER_ADDRESS (30) per client address and PAYMENT_LINK_ORDERS_PER_LINK (300)
 * per link, per 10 minutes of real time. The address is checked first, so one address can never use up
 * more than its own share of a link's allowance. Counts are atomic in the operational store
 * (`useAllowance`, as for login attempts); addresses are stored as SHA-256 hashes. Over either allowance:
 * 429 RATE_LIMITED with Retry-After, and no order is made. Ended windows are purged once a minute (as
 * login-attempt windows are), so the counts do not keep a row per address.
 */
@Injectable()
export class PaymentLinkOrderLimits implements OnModuleInit {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(REAL_CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly timers: TimerWorker,
  ) {}

  onModuleInit(): void {
    for (const collection of [PAYMENT_LINK_ORDERS_BY_ADDRESS, PAYMENT_LINK_ORDERS_BY_LINK]) {
      this.timers.addPurge(`expired ${collection}`, (realNowMs, limit) => this.store.purgeExpiredOperational(collection, new Date(realNowMs).toISOString(), limit));
    }
  }

  async count(slug: string, clientAddress: string): Promise<void> {
    await this.use(PAYMENT_LINK_ORDERS_BY_ADDRESS, sha256Hex(clientAddress), this.config.paymentLinkOrdersPerAddress);
    await this.use(PAYMENT_LINK_ORDERS_BY_LINK, slug, this.config.paymentLinkOrdersPerLink);
  }

  private async use(collection: string, id: string, allowance: number): Promise<void> {
    const now = this.clock.now();
    const windowEndsAt = new Date(now.getTime() + PAYMENT_LINK_WINDOW_SECONDS * 1000).toISOString();
    if (await this.store.useAllowance(collection, id, allowance, now.toISOString(), windowEndsAt)) return;
    const window = await this.store.getOperational<{ id: string; expiresAt: string }>(collection, id);
    const endsInMs = window ? Date.parse(window.expiresAt) - now.getTime() : PAYMENT_LINK_WINDOW_SECONDS * 1000;
    throw new PaymentLinkOrdersLimitedError(Math.max(1, Math.ceil(endsInMs / 1000)));
  }
}
