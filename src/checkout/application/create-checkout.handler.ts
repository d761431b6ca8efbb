import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { CommandMetadata } from '../../platform/domain/command';
import { ConcurrencyError } from '../../platform/event-store/event-store.port';
import { credentialId } from '../../platform/ids/ids';
import { IdempotencyKeyReusedError, requestFingerprint } from '../../platform/domain/idempotency';
import { CheckoutSecrets, secretHash } from './checkout-secrets';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CheckoutMode, IntervalUnit, orderStreamId, Provider } from '../domain/checkout.events';
import { checkOrderRules, checkoutOrderDecider, OrderData, OrderState } from '../domain/checkout-order.decider';

export interface CreateCheckoutRequest {
  amountMinorUnits: string;
  currency: string;
  provider: Provider;
  returnUrl: string;
  checkoutMode: CheckoutMode;
  externalOrderRef: string | null;
  idempotencyKey: string | null;
  subscriptionIntervalUnit: IntervalUnit | null;
  /** The buyer's email (issue 29), optional: renewal emails of the subscription the order founds go there. */
  customerEmail?: string | null;
}

/** The create answer (docs/checkout.md#create-a-checkout): redirectUrl in REDIRECT mode, clientSecret in EMBEDDED mode. */
export interface CheckoutCreated {
  orderId: string;
  provider: Provider;
  checkoutMode: CheckoutMode;
  redirectUrl?: string;
  clientSecret?: string;
}

export const hostedPageUrl = (hostedCheckoutUrl: string, orderId: string, pageToken: string) => `${hostedCheckoutUrl}/pay/${orderId}?t=${encodeURIComponent(pageToken)}`;

/** What the create answer needs of an order; the decider's state carries it. */
export type CreatedOrder = Pick<OrderData, 'orderId' | 'provider' | 'checkoutMode' | 'pageToken' | 'clientSecret' | 'requestHash'>;

/** The buyer's credentials of a new order, derived from its id (CheckoutSecrets). */
interface CreatedSecrets {
  pageToken: string;
  clientSecret: string | null;
}

export interface CreateCheckoutResult {
  order: CreatedOrder;
  /** The answer the merchant gets (docs/checkout.md#create-a-checkout). */
  response: CheckoutCreated;
  replayed: boolean;
}

export class CreateCheckoutMessage extends Command<CreateCheckoutResult> {
  constructor(
    readonly companyId: string,
    readonly request: CreateCheckoutRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * docs/checkout.md#create-a-checkout. The 422 rules run before anything is written. The order id is a
 * buyer credential (the public status call answers its subscription id), so nobody may compute it:
 * without an idempotencyKey it is random (`credentialId`, about 134 bits); with one it is
 * `CheckoutSecrets.orderId`, an HMAC of (company, key) under SECRETS_KEY, so the same key still finds
 * the same order with a single `no_stream` append: a retry (or 50 concurrent ones) gets 200 +
 * Idempotent-Replayed with the original answer, and the same key with another request (the fingerprint
 * recorded in the created event differs) is 409 IDEMPOTENCY_KEY_REUSED. (A stored key -> random id
 * mapping costs a second append on this path: measured at about half the throughput, docs/decisions.md.)
 *
 * This is the hottest write of the service (a merchant's server calls it for every buyer), so it does not
 * wait for the read model: the answer is built from the order's own events, and the reads that follow
 * (status, hosted page) wait for the order's stream when the read model does not hold it yet
 * (CheckoutQueries.order). A client still never sees a 404 for an order it just created.
 * The expiry timer is scheduled by the checkout process manager when it sees the order created, so a
 * crash right after the append cannot leave an order that never expires.
 */
@CommandHandler(CreateCheckoutMessage)
export class CreateCheckoutHandler implements ICommandHandler<CreateCheckoutMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly secrets: CheckoutSecrets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ companyId, request, context }: CreateCheckoutMessage): Promise<CreateCheckoutResult> {
    checkOrderRules(request);
    const metadata = commandMetadata(this.clock, context);
    if (request.idempotencyKey === null) return this.create(credentialId('ord'), null, companyId, request, metadata, context);
    return this.create(this.secrets.orderId(companyId, request.idempotencyKey), createCheckoutFingerprint(request), companyId, request, metadata, context);
  }

  /** Creates the order under `orderId`; a concurrent request with the same key that created it first makes this a replay. */
  private async create(
    orderId: string,
    requestHash: string | null,
    companyId: string,
    request: CreateCheckoutRequest,
    metadata: CommandMetadata,
    context: CommandContext,
  ): Promise<CreateCheckoutResult> {
    const stream = orderStreamId(orderId);
    // Derived once: the event records their hashes and the answer carries them (an HMAC each, issue 31).
    const secrets: CreatedSecrets = {
      pageToken: this.secrets.pageToken({ orderId }),
      clientSecret: request.checkoutMode === 'EMBEDDED' ? this.secrets.clientSecret({ orderId }) : null,
    };
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
            requestHash,
            subscriptionIntervalUnit: request.subscriptionIntervalUnit,
            renewal: null,
            pageTokenHash: secretHash(secrets.pageToken),
            clientSecretHash: secrets.clientSecret === null ? null : secretHash(secrets.clientSecret),
            subscriptionId: request.subscriptionIntervalUnit !== null ? credentialId('sub') : null,
            customerEmail: request.customerEmail ?? null,
          },
          metadata,
        },
        context,
      );
      const order = orderOf(result.state);
      return { order, response: this.response(order, secrets), replayed: false };
    } catch (error) {
      // The order exists: an earlier (or concurrent) request with the same idempotencyKey created it.
      if (!(error instanceof ConcurrencyError) || request.idempotencyKey === null) throw error;
      const existing = orderOf((await this.aggregates.load(stream, checkoutOrderDecider)).state);
      if (existing.requestHash && existing.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
      return this.result(existing, true);
    }
  }

  private result(order: CreatedOrder, replayed: boolean): CreateCheckoutResult {
    return { order, response: this.response(order), replayed };
  }

  /** The answer; a replay derives the order's secrets again (`derived` is what a fresh create already holds). */
  private response(order: CreatedOrder, derived?: CreatedSecrets): CheckoutCreated {
    const base = { orderId: order.orderId, provider: order.provider, checkoutMode: order.checkoutMode };
    if (order.checkoutMode === 'EMBEDDED') return { ...base, clientSecret: derived?.clientSecret ?? this.secrets.clientSecret(order) };
    return { ...base, redirectUrl: hostedPageUrl(this.config.hostedCheckoutUrl, order.orderId, derived?.pageToken ?? this.secrets.pageToken(order)) };
  }
}

/** What makes two creates with one idempotencyKey the same request: every field of the body but the key. */
export function createCheckoutFingerprint(request: CreateCheckoutRequest): string {
  // Without a customerEmail the fingerprint is the one recorded before issue 29, so old keys still replay.
  const { idempotencyKey: _key, customerEmail, ...rest } = request;
  return requestFingerprint(customerEmail ? { ...rest, customerEmail } : rest);
}

function orderOf(state: OrderState): CreatedOrder {
  if (state.status === 'NONE') throw new Error('create-checkout: the order stream holds no order');
  return state;
}
