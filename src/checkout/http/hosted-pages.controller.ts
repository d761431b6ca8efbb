import { wasPaid } from '../domain/checkout.events';
import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../platform/domain/domain-error';
import { statusOfKind } from '../../platform/http/error-filter';
import { sendPage } from '../../platform/http/security-headers';
import { commandContext, Public } from '../../identity';
import { CheckoutQueries } from '../application/checkout-queries';
import { ApproveWalletPaymentMessage } from '../application/approve-wallet-payment.handler';
import { CompleteAuthenticationMessage } from '../application/complete-authentication.handler';
import { secretMatches } from '../application/checkout-secrets';
import { storedSecretHash } from '../domain/checkout-order.decider';
import { PayHostedOrderMessage } from '../application/pay-hosted-order.handler';
import { StartPaymentLinkOrderMessage } from '../application/start-payment-link-order.handler';
import { CardDeclinedError, PaymentLinkOrdersLimitedError } from '../domain/checkout.errors';
import { prefersHtml } from '../../platform/http/content-negotiation';
import { OrderView, PAYMENT_LINK_ORDER_REF } from '../projections/checkout-read-model.projection';
import { UseAnotherCardMessage } from '../application/use-another-card.handler';
import { isCustomerEmail } from './checkout.request.dto';
import { findSubscription } from './subscription-pages.controller';
import { receiptSubscriptionLines, subscriptionTerms } from './subscription-pages.html';
import { authenticationPage, declineSentence, embedPage, messagePage, payPage, paymentLinkPage, receiptPage, returnAddress } from './hosted-pages.html';

type Form = Record<string, string | undefined>;
const isEmbed = (value: unknown) => value === 'true';
const isFrame = (value: unknown) => value === '1';
const NOT_FOUND = ['Payment page not found', 'This payment link is not valid. Ask the merchant for a new one.'] as const;

/**
 * Framing (docs/checkout.md#payment-links-and-framing): embedded pages may be framed by any origin; every other page refuses framing
 * (CSP frame-ancestors, and X-Frame-Options for old browsers). The rest of the policy is the platform's page policy.
 */
function sendHtml(reply: FastifyReply, status: number, html: string, embed: boolean): void {
  sendPage(reply, status, html, embed ? 'any' : 'none');
}

function redirect(reply: FastifyReply, location: string): void {
  void reply.status(303).header('Location', location).header('Cache-Control', 'no-store').send();
}

/** The hosted pay page's address (query only: the page token is its credential). */
const payAddress = (orderId: string, token: string, embed: boolean) => `/pay/${orderId}?t=${encodeURIComponent(token)}${embed ? '&embed=true' : ''}`;

/** The buyer-facing pages the service hosts: the REDIRECT payment page, its authentication step, the embedded frame, payment links, and receipts (their assets and /checkout.js: platform PageAssetsController). */
@ApiExcludeController()
@Public()
@Controller()
export class HostedPagesController {
  constructor(
    private readonly queries: CheckoutQueries,
    private readonly commands: CommandBus,
  ) {}

  /** The embedded checkout frame that /checkout.js mounts; the client secret arrives in the fragment, never on the server. */
  @Get('embed/checkout/:orderId')
  async embedFrame(@Param('orderId') orderId: string, @Res() reply: FastifyReply) {
    const order = await this.queries.order(orderId).catch(() => null);
    if (!order || order.checkoutMode !== 'EMBEDDED') return sendHtml(reply, 404, messagePage('Payment form not found', 'This payment form does not exist.', true), true);
    const terms = wasPaid(order.status) && order.subscriptionId && !order.renewal ? subscriptionTerms(order, await findSubscription(this.queries, order.subscriptionId)) : null;
    sendHtml(reply, 200, embedPage(order, await this.queries.buyerFacing(order), terms ? receiptSubscriptionLines(terms, true) : null), true);
  }

  @Get('pay/:orderId')
  async payPage(@Param('orderId') orderId: string, @Query('t') token: string | undefined, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, isEmbed(embed)), isEmbed(embed));
    const closed = await this.closedPage(order, isEmbed(embed));
    if (closed) return sendHtml(reply, 200, closed, isEmbed(embed));
    sendHtml(reply, 200, payPage(order, await this.queries.buyerFacing(order), token!, isEmbed(embed), null), isEmbed(embed));
  }

  @Post('pay/:orderId')
  async payWithCard(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, embed), embed);
    const party = await this.queries.buyerFacing(order);
    const expiry = { month: (form?.expMonth ?? '').slice(0, 2), year: (form?.expYear ?? '').slice(0, 4) };
    // A subscription order asks the buyer's email (issue 29): renewal emails and the cancel link go there.
    // Optional: left blank (or a form without the field) keeps the merchant's customerEmail, if any, and the
    // order pays as it did before the field existed; only an address that is not one is refused.
    const givenEmail = (form?.customerEmail ?? '').trim();
    const asksEmail = order.subscriptionIntervalUnit !== null && order.provider === 'CARD_PROCESSOR';
    const email = asksEmail ? { value: givenEmail.slice(0, 254), invalid: givenEmail !== '' && !isCustomerEmail(givenEmail) } : undefined;
    if (email?.invalid) return sendHtml(reply, 400, payPage(order, party, token, embed, 'Check your email address.', expiry, email), embed);
    const card = parseCardForm(form);
    if (!card)
      return sendHtml(reply, 400, payPage(order, party, token, embed, 'Check the card details: card number, expiry month and year, and security code.', expiry, email), embed);
    try {
      const result = await this.commands.execute(new PayHostedOrderMessage(orderId, token, card, commandContext(request, null), asksEmail && givenEmail ? givenEmail : null));
      if (result.status === 'REQUIRES_ACTION') return redirect(reply, `/pay/${orderId}/authenticate?t=${encodeURIComponent(token)}${embed ? '&embed=true' : ''}`);
      return redirect(reply, returnAddress(order.returnUrl, orderId));
    } catch (error) {
      if (error instanceof CardDeclinedError) return sendHtml(reply, 402, payPage(order, party, token, embed, declineSentence(error.declineCode), expiry, email), embed);
      return this.failed(reply, error, embed);
    }
  }

  @Get('pay/:orderId/authenticate')
  async authenticatePage(
    @Param('orderId') orderId: string,
    @Query('t') token: string | undefined,
    @Query('embed') embed: string | undefined,
    @Query('frame') frame: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, isEmbed(embed)), isEmbed(embed));
    if (isFrame(frame) && order.status !== 'REQUIRES_ACTION') return redirect(reply, `/embed/checkout/${orderId}`);
    const closed = await this.closedPage(order, isEmbed(embed));
    if (closed) return sendHtml(reply, 200, closed, isEmbed(embed));
    if (order.status !== 'REQUIRES_ACTION') return redirect(reply, payAddress(orderId, token!, isEmbed(embed)));
    sendHtml(reply, 200, authenticationPage(order, await this.queries.buyerFacing(order), token!, isEmbed(embed), isFrame(frame)), isEmbed(embed));
  }

  @Post('pay/:orderId/authenticate')
  async authenticate(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, embed), embed);
    try {
      await this.commands.execute(new CompleteAuthenticationMessage(orderId, token, commandContext(request, null)));
      // Inside the embedded frame the buyer stays on the merchant's page: the frame shows the paid state and tells the page.
      return redirect(reply, isFrame(form?.frame) ? `/embed/checkout/${orderId}` : returnAddress(order.returnUrl, orderId));
    } catch (error) {
      return this.failed(reply, error, embed);
    }
  }

  /** "Use another card" on the authentication step: the order is OPEN again and the card form comes back. */
  @Post('pay/:orderId/another-card')
  async useAnotherCard(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, embed), embed);
    try {
      await this.commands.execute(new UseAnotherCardMessage(orderId, token, commandContext(request, null)));
      return redirect(reply, isFrame(form?.frame) ? `/embed/checkout/${orderId}` : payAddress(orderId, token, embed));
    } catch (error) {
      return this.failed(reply, error, embed);
    }
  }

  @Post('pay/:orderId/wallet')
  async wallet(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, embed), embed);
    // Cancel: back to the merchant with order=<id> and the order still OPEN (the merchant checks the status; only PAID means paid).
    if (form?.decision !== 'approve') return redirect(reply, returnAddress(order.returnUrl, orderId));
    try {
      await this.commands.execute(new ApproveWalletPaymentMessage(orderId, token, commandContext(request, null)));
      return redirect(reply, returnAddress(order.returnUrl, orderId));
    } catch (error) {
      return this.failed(reply, error, embed);
    }
  }

  /** The buyer's receipt (the page token is the credential); an unpaid order sends the buyer to the pay page. */
  @Get('pay/:orderId/receipt')
  async receipt(@Param('orderId') orderId: string, @Query('t') token: string | undefined, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage(...NOT_FOUND, isEmbed(embed)), isEmbed(embed));
    if (!wasPaid(order.status)) return redirect(reply, payAddress(orderId, token!, isEmbed(embed)));
    const back = { href: returnAddress(order.returnUrl, order.id), label: 'Return to the merchant' };
    sendHtml(reply, 200, await this.receiptHtml(order, isEmbed(embed), back), isEmbed(embed));
  }

  @Get('checkout/:slug')
  async paymentLink(@Param('slug') slug: string, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const link = await this.queries.paymentLink(slug).catch(() => null);
    if (!link) return sendHtml(reply, 404, messagePage('Checkout not found', 'This checkout link does not exist.', isEmbed(embed)), isEmbed(embed));
    sendHtml(reply, 200, paymentLinkPage(link, await this.queries.merchantName(link.companyId), isEmbed(embed)), isEmbed(embed));
  }

  @Post('checkout/:slug')
  async startPaymentLink(@Param('slug') slug: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const link = await this.queries.paymentLink(slug).catch(() => null);
    if (!link) return sendHtml(reply, 404, messagePage('Checkout not found', 'This checkout link does not exist.', embed), embed);
    try {
      const order = await this.commands.execute(new StartPaymentLinkOrderMessage(link, embed, request.ip, commandContext(request, null)));
      return redirect(reply, `/pay/${order.orderId}?t=${order.pageToken ?? ''}${embed ? '&embed=true' : ''}`);
    } catch (error) {
      if (!(error instanceof PaymentLinkOrdersLimitedError)) return this.failed(reply, error, embed);
      // A person gets a page; any other client the error envelope (both 429 with Retry-After).
      if (!prefersHtml(request)) throw error;
      void reply.header('Retry-After', String(error.retryAfterSeconds));
      return sendHtml(reply, 429, messagePage('Please wait', `Too many payments were started here just now. Try again in ${error.retryAfterSeconds} seconds.`, embed), embed);
    }
  }

  /** Where a payment link returns the buyer: the receipt when the order is paid, otherwise a way back to the link. */
  @Get('checkout/:slug/complete')
  async paymentLinkComplete(@Param('slug') slug: string, @Query('order') orderId: string | undefined, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const order = orderId ? await this.queries.order(orderId).catch(() => null) : null;
    const ours = order !== null && order.externalOrderRef === `${PAYMENT_LINK_ORDER_REF}${slug}`;
    const again = { href: `/checkout/${encodeURIComponent(slug)}${isEmbed(embed) ? '?embed=true' : ''}`, label: 'Start the payment again' };
    if (ours && wasPaid(order.status)) return sendHtml(reply, 200, await this.receiptHtml(order, isEmbed(embed), null), isEmbed(embed));
    sendHtml(reply, 200, messagePage('Payment not completed', 'Nothing was paid. You can start the payment again.', isEmbed(embed), again), isEmbed(embed));
  }

  /** The order, when the page token matches it; null otherwise (the page then answers 404). */
  private async openOrder(orderId: string, token: string | undefined): Promise<OrderView | null> {
    const order = await this.queries.order(orderId).catch(() => null);
    if (!order || order.renewal || !secretMatches(token ?? '', storedSecretHash(order.pageTokenHash, order.pageToken))) return null;
    return order;
  }

  private async closedPage(order: OrderView, embed: boolean): Promise<string | null> {
    const back = { href: returnAddress(order.returnUrl, order.id), label: 'Return to the merchant' };
    if (wasPaid(order.status)) return this.receiptHtml(order, embed, back);
    if (order.status === 'EXPIRED') return messagePage('Checkout expired', 'This checkout has expired. Return to the merchant to start again.', embed, back);
    if (order.status === 'FAILED') return messagePage('Payment failed', 'This payment failed.', embed, back);
    return null;
  }

  /** The receipt, with a subscription's interval, next charge and the way to cancel (issue 29 item 8). */
  private async receiptHtml(order: OrderView, embed: boolean, back: { href: string; label: string } | null): Promise<string> {
    const terms = order.subscriptionId && !order.renewal ? subscriptionTerms(order, await findSubscription(this.queries, order.subscriptionId)) : null;
    return receiptPage(order, await this.queries.buyerFacing(order), embed, back, terms ? receiptSubscriptionLines(terms, embed) : null);
  }

  /** A refused action as a page, with the status (and Retry-After) the error filter gives the same error in the API. */
  private failed(reply: FastifyReply, error: unknown, embed: boolean): void {
    if (error instanceof DomainError) {
      if (error.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(error.retryAfterSeconds));
      return sendHtml(reply, statusOfKind(error.kind), messagePage('Payment not possible', error.message, embed), embed);
    }
    throw error;
  }
}

/** The card form's fields (strings from an urlencoded body), or null when one is malformed. */
export function parseCardForm(form: Form | undefined): { number: string; expMonth: number; expYear: number; cvc: string } | null {
  const number = (form?.number ?? '').replace(/[\s-]/g, '');
  const expMonth = Number(form?.expMonth);
  let expYear = Number(form?.expYear);
  if (expYear >= 0 && expYear < 100) expYear += 2000;
  const cvc = (form?.cvc ?? '').trim();
  if (
    !/^\d{12,19}$/.test(number) ||
    !Number.isInteger(expMonth) ||
    expMonth < 1 ||
    expMonth > 12 ||
    !Number.isInteger(expYear) ||
    expYear < 2000 ||
    expYear > 2100 ||
    !/^\d{3,4}$/.test(cvc)
  )
    return null;
  return { number, expMonth, expYear, cvc };
}
