import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CheckoutClientSecretInvalidError, CheckoutConfirmNeedsCardError, CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { assertPayable } from '../domain/checkout-order.decider';
import { CardInput } from '../domain/payment-processor.port';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutSecrets, secretMatches } from './checkout-secrets';

/**
 * What the buyer-payment handlers share (confirm an embedded order, pay on the hosted page, the
 * authentication step, a wallet approval). The processor is asked only when the order can take the payment,
 * and only after the attempt is recorded (CheckoutPayments.attemptBuyerPayment).
 */

export type ConfirmResult = { status: 'PAID' } | { status: 'REQUIRES_ACTION'; nextAction: { redirectUrl: string } };

/** Which secret opens the order: `clientSecret` for the embedded API, `pageToken` for the hosted page. */
export type OrderCredential = { clientSecret: string } | { pageToken: string };

/** A card payment of an order the credential opens: PAID, or REQUIRES_ACTION with the authentication step's address. */
export async function payOrderWithCard(
  deps: { payments: CheckoutPayments; readYourWrites: ReadYourWrites; secrets: CheckoutSecrets; hostedCheckoutUrl: string },
  orderId: string,
  credential: OrderCredential,
  card: CardInput,
  context: CommandContext,
  customerEmail: string | null = null,
): Promise<ConfirmResult> {
  const { payments, readYourWrites } = deps;
  const { state } = await payments.loadOrder(orderId);
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  const authorised = 'clientSecret' in credential ? secretMatches(credential.clientSecret, state.clientSecretHash) : secretMatches(credential.pageToken, state.pageTokenHash);
  if (!authorised) throw new CheckoutClientSecretInvalidError();
  if (state.provider !== 'CARD_PROCESSOR') throw new CheckoutConfirmNeedsCardError();
  assertPayable(state, payments.now());
  const processor = payments.processorFor(state);
  const result = await payments.attemptBuyerPayment(orderId, 'CARD', (request) => processor.chargeCard(request, card), context, customerEmail);
  await readYourWrites.after(...result.written);
  if (result.status === 'PAID') return { status: 'PAID' };
  return { status: 'REQUIRES_ACTION', nextAction: { redirectUrl: `${deps.hostedCheckoutUrl}/pay/${orderId}/authenticate?t=${encodeURIComponent(deps.secrets.pageToken(state))}` } };
}
