import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ConcurrencyError } from '../../platform/event-store/event-store.port';
import { deterministicId, newId, randomBase36 } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CheckoutMode, IntervalUnit, orderStreamId, Provider } from '../domain/checkout.events';
import { checkOrderRules, checkoutOrderDecider } from '../domain/checkout-order.decider';
import { OrderView } from '../projections/checkout-read-model.projection';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutQueries } from './checkout-queries';

export interface CreateCheckoutRequest {
  amountMinorUnits: string;
  currency: string;
  provider: Provider;
  returnUrl: string;
  checkoutMode: CheckoutMode;
  externalOrderRef: string | null;
  idempotencyKey: string | null;
  subscriptionIntervalUnit: IntervalUnit | null;
}

/** Spec 4.1's response: redirectUrl in REDIRECT mode, clientSecret in EMBEDDED mode. */
export interface CheckoutCreated {
  orderId: string;
  provider: Provider;
  checkoutMode: CheckoutMode;
  redirectUrl?: string;
  clientSecret?: string;
}

export const hostedPageUrl = (hostedCheckoutUrl: string, order: Pick<OrderView, 'id' | 'pageToken'>) =>
  `${hostedCheckoutUrl}/pay/${order.id}?t=${order.pageToken ?? ''}`;

/**
 * Spec 4.1. The 422 rules run before anything is written. With an idempotencyKey the order id derives
 * from (company, key) and the order is appended with `no_stream`, so a retry (or 50 concurrent ones)
 * finds the existing order: 200 + Idempotent-Replayed with the original answer.
 */
@Injectable()
export class CreateCheckoutHandler {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly payments: CheckoutPayments,
    private readonly queries: CheckoutQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(companyId: string, request: CreateCheckoutRequest, context: CommandContext): Promise<{ order: OrderView; replayed: boolean }> {
    checkOrderRules(request);
    const now = this.clock.now();
    const orderId = request.idempotencyKey !== null ? deterministicId('ord', companyId, request.idempotencyKey) : newId('ord', now.getTime());
    const stream = orderStreamId(orderId);
    if (request.idempotencyKey !== null) {
      const existing = await this.aggregates.load(stream, checkoutOrderDecider);
      if (existing.state.status !== 'NONE') return this.replay(orderId);
    }
    try {
      const result = await this.aggregates.handle(
        stream,
        checkoutOrderDecider,
        {
          type: 'CreateOrder',
          data: {
            orderId,
            merchantCompanyId: companyId,
            amountMinorUnits: request.amountMinorUnits,
            currency: request.currency,
            provider: request.provider,
            checkoutMode: request.checkoutMode,
            returnUrl: request.returnUrl,
            externalOrderRef: request.externalOrderRef,
            idempotencyKey: request.idempotencyKey,
            subscriptionIntervalUnit: request.subscriptionIntervalUnit,
            renewal: null,
            pageToken: randomBase36(32),
            clientSecret: request.checkoutMode === 'EMBEDDED' ? `${orderId}_secret_${randomBase36(32)}` : null,
            now: now.toISOString(),
          },
        },
        context,
        { expected: 'no_stream' },
      );
      // A concurrent identical request created it between our check and the append: the decider saw it.
      const created = result.events[0];
      if (created?.type !== 'checkout.order.created') return this.replay(orderId);
      if (created.data.expiresAt) await this.payments.scheduleExpiry(orderId, created.data.expiresAt);
      await this.readYourWrites.after(result.position);
      return { order: await this.queries.order(orderId), replayed: false };
    } catch (error) {
      if (error instanceof ConcurrencyError && request.idempotencyKey !== null) return this.replay(orderId);
      throw error;
    }
  }

  response(order: OrderView): CheckoutCreated {
    const base = { orderId: order.id, provider: order.provider, checkoutMode: order.checkoutMode };
    if (order.checkoutMode === 'EMBEDDED') return { ...base, clientSecret: order.clientSecret ?? '' };
    return { ...base, redirectUrl: hostedPageUrl(this.config.hostedCheckoutUrl, order) };
  }

  private async replay(orderId: string): Promise<{ order: OrderView; replayed: boolean }> {
    await this.readYourWrites.afterStream(orderStreamId(orderId));
    return { order: await this.queries.order(orderId), replayed: true };
  }
}
