import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ConcurrencyError } from '../../platform/event-store/event-store.port';
import { credentialId, deterministicId, newId, randomBase36 } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CheckoutMode, IntervalUnit, orderStreamId, Provider } from '../domain/checkout.events';
import { checkOrderRules, checkoutOrderDecider, OrderData, OrderState } from '../domain/checkout-order.decider';
import { OrderView } from '../projections/checkout-read-model.projection';

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

/** The create answer (docs/checkout.md#create-a-checkout): redirectUrl in REDIRECT mode, clientSecret in EMBEDDED mode. */
export interface CheckoutCreated {
  orderId: string;
  provider: Provider;
  checkoutMode: CheckoutMode;
  redirectUrl?: string;
  clientSecret?: string;
}

export const hostedPageUrl = (hostedCheckoutUrl: string, order: Pick<OrderView, 'id' | 'pageToken'>) => `${hostedCheckoutUrl}/pay/${order.id}?t=${order.pageToken ?? ''}`;

/** What the create answer needs of an order; the decider's state carries it. */
export type CreatedOrder = Pick<OrderData, 'orderId' | 'provider' | 'checkoutMode' | 'pageToken' | 'clientSecret'>;

export interface CreateCheckoutResult {
  order: CreatedOrder;
  /** The answer the merchant gets (docs/checkout.md#create-a-checkout). */
  response: CheckoutCreated;
  replayed: boolean;
}

export class CreateCheckoutCommand extends Command<CreateCheckoutResult> {
  constructor(
    readonly companyId: string,
    readonly request: CreateCheckoutRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * docs/checkout.md#create-a-checkout. The 422 rules run before anything is written. With an idempotencyKey the order id derives
 * from (company, key) and the order is appended with `no_stream`, so a retry (or 50 concurrent ones)
 * finds the existing order: 200 + Idempotent-Replayed with the original answer. The append does not read
 * the stream first: `no_stream` is the check.
 *
 * This is the hottest write of the service (a merchant's server calls it for every buyer), so it does not
 * wait for the read model: the answer is built from the order's own events, and the reads that follow
 * (status, hosted page) wait for the order's stream when the read model does not hold it yet
 * (CheckoutQueries.order). A client still never sees a 404 for an order it just created.
 * The expiry timer is scheduled by the checkout process manager when it sees the order created, so a
 * crash right after the append cannot leave an order that never expires.
 */
@CommandHandler(CreateCheckoutCommand)
export class CreateCheckoutHandler implements ICommandHandler<CreateCheckoutCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ companyId, request, context }: CreateCheckoutCommand): Promise<CreateCheckoutResult> {
    checkOrderRules(request);
    const now = this.clock.now();
    const orderId = request.idempotencyKey !== null ? deterministicId('ord', companyId, request.idempotencyKey) : newId('ord', now.getTime());
    const stream = orderStreamId(orderId);
    try {
      const result = await this.aggregates.create(
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
            subscriptionId: request.subscriptionIntervalUnit !== null ? credentialId('sub') : null,
            now: now.toISOString(),
          },
        },
        context,
      );
      return this.result(orderOf(result.state), false);
    } catch (error) {
      // The order exists: an earlier (or concurrent) request with the same idempotencyKey created it.
      if (!(error instanceof ConcurrencyError) || request.idempotencyKey === null) throw error;
      return this.result(orderOf((await this.aggregates.load(stream, checkoutOrderDecider)).state), true);
    }
  }

  private result(order: CreatedOrder, replayed: boolean): CreateCheckoutResult {
    return { order, response: this.response(order), replayed };
  }

  private response(order: CreatedOrder): CheckoutCreated {
    const base = { orderId: order.orderId, provider: order.provider, checkoutMode: order.checkoutMode };
    if (order.checkoutMode === 'EMBEDDED') return { ...base, clientSecret: order.clientSecret ?? '' };
    return { ...base, redirectUrl: hostedPageUrl(this.config.hostedCheckoutUrl, { id: order.orderId, pageToken: order.pageToken }) };
  }
}

function orderOf(state: OrderState): CreatedOrder {
  if (state.status === 'NONE') throw new Error('create-checkout: the order stream holds no order');
  return state;
}
