import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CheckoutClientSecretInvalidError, CheckoutConfirmNeedsCardError, CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { assertPayable, pendingAuthentication } from '../domain/checkout-order.decider';
import { CardInput } from '../domain/payment-processor.port';
import { CheckoutPayments } from './checkout-payments';

export type ConfirmResult = { status: 'PAID' } | { status: 'REQUIRES_ACTION'; nextAction: { redirectUrl: string } };

export function sameSecret(given: string, expected: string | null): boolean {
  if (expected === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The buyer pays: a card through the embedded confirm call or the hosted page, the buyer-authentication
 * step, or a wallet approval. The processor is asked only when the order can take the payment.
 */
@Injectable()
export class PayOrderHandler {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Which secret opens the order: `clientSecret` for the embedded API, `pageToken` for the hosted page. */
  async payWithCard(orderId: string, credential: { clientSecret?: string; pageToken?: string }, card: CardInput, context: CommandContext): Promise<ConfirmResult> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
    const authorised = credential.clientSecret !== undefined ? sameSecret(credential.clientSecret, state.clientSecret) : sameSecret(credential.pageToken ?? '', state.pageToken);
    if (!authorised) throw new CheckoutClientSecretInvalidError();
    if (state.provider !== 'CARD_PROCESSOR') throw new CheckoutConfirmNeedsCardError();
    assertPayable(state, this.payments.now());
    const outcome = await this.payments.processorFor(state).chargeCard(this.chargeOf(state), card);
    const result = await this.payments.recordBuyerOutcome(orderId, outcome, context);
    await this.readYourWrites.after(...result.written);
    if (result.status === 'PAID') return { status: 'PAID' };
    return { status: 'REQUIRES_ACTION', nextAction: { redirectUrl: `${this.config.hostedCheckoutUrl}/pay/${orderId}/authenticate?t=${state.pageToken ?? ''}` } };
  }

  /** The buyer passed the authentication step (the sandbox confirm page). */
  async completeAuthentication(orderId: string, pageToken: string, context: CommandContext): Promise<ConfirmResult> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE' || !sameSecret(pageToken, state.pageToken)) throw new CheckoutOrderNotFoundError();
    const card = pendingAuthentication(state);
    assertPayable(state, this.payments.now());
    const outcome = await this.payments.processorFor(state).completeAuthentication(this.chargeOf(state), card);
    const result = await this.payments.recordBuyerOutcome(orderId, outcome, context);
    await this.readYourWrites.after(...result.written);
    return { status: 'PAID' };
  }

  async approveWallet(orderId: string, pageToken: string, context: CommandContext): Promise<ConfirmResult> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE' || !sameSecret(pageToken, state.pageToken)) throw new CheckoutOrderNotFoundError();
    assertPayable(state, this.payments.now());
    const outcome = await this.payments.processorFor(state).approveWallet(this.chargeOf(state));
    const result = await this.payments.recordBuyerOutcome(orderId, outcome, context);
    await this.readYourWrites.after(...result.written);
    return { status: 'PAID' };
  }

  private chargeOf(state: { orderId: string; amountMinorUnits: string; currency: string }) {
    return { orderId: state.orderId, amountMinorUnits: state.amountMinorUnits, currency: state.currency, now: this.payments.now() };
  }
}
