import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../platform/domain/domain-error';
import { commandContext, Public } from '../../identity';
import { CheckoutQueries } from '../application/checkout-queries';
import { ApproveWalletPaymentCommand } from '../application/approve-wallet-payment.handler';
import { CompleteAuthenticationCommand } from '../application/complete-authentication.handler';
import { sameSecret } from '../application/order-payment';
import { PayHostedOrderCommand } from '../application/pay-hosted-order.handler';
import { StartPaymentLinkOrderCommand } from '../application/start-payment-link-order.handler';
import { CardDeclinedError } from '../domain/checkout.errors';
import { OrderView } from '../projections/checkout-read-model.projection';
import { CHECKOUT_JS } from './checkout-js';
import { authenticationPage, messagePage, payPage, paymentLinkPage, returnAddress } from './hosted-pages.html';

type Form = Record<string, string | undefined>;
const isEmbed = (value: unknown) => value === 'true';

/**
 * Framing (docs/checkout.md#payment-links-and-framing): embedded pages may be framed by any origin; every other page refuses framing.
 * Both headers are sent for old browsers (X-Frame-Options) and new ones (CSP frame-ancestors).
 */
function sendHtml(reply: FastifyReply, status: number, html: string, embed: boolean): void {
  void reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  if (embed) void reply.header('Content-Security-Policy', 'frame-ancestors *');
  else void reply.header('X-Frame-Options', 'DENY').header('Content-Security-Policy', "frame-ancestors 'none'");
  void reply.send(html);
}

function redirect(reply: FastifyReply, location: string): void {
  void reply.status(303).header('Location', location).header('Cache-Control', 'no-store').send();
}

/** The buyer-facing pages the service hosts: the REDIRECT payment page, its authentication step, payment links and /checkout.js. */
@ApiExcludeController()
@Public()
@Controller()
export class HostedPagesController {
  constructor(
    private readonly queries: CheckoutQueries,
    private readonly commands: CommandBus,
  ) {}

  @Get('checkout.js')
  checkoutJs(@Res() reply: FastifyReply) {
    void reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('Access-Control-Allow-Origin', '*').send(CHECKOUT_JS);
  }

  @Get('pay/:orderId')
  async payPage(@Param('orderId') orderId: string, @Query('t') token: string | undefined, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const order = await this.openOrder(orderId, token);
    if (!order)
      return sendHtml(reply, 404, messagePage('Payment page not found', 'This payment link is not valid. Ask the merchant for a new one.', isEmbed(embed)), isEmbed(embed));
    const closed = this.closedPage(order, isEmbed(embed));
    if (closed) return sendHtml(reply, 200, closed, isEmbed(embed));
    sendHtml(reply, 200, payPage(order, token!, isEmbed(embed), null), isEmbed(embed));
  }

  @Post('pay/:orderId')
  async payWithCard(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage('Payment page not found', 'This payment link is not valid. Ask the merchant for a new one.', embed), embed);
    const card = parseCardForm(form);
    if (!card) return sendHtml(reply, 400, payPage(order, token, embed, 'Check the card details: card number, expiry month and year, and security code.'), embed);
    try {
      const result = await this.commands.execute(new PayHostedOrderCommand(orderId, token, card, commandContext(request, null)));
      if (result.status === 'REQUIRES_ACTION') return redirect(reply, `/pay/${orderId}/authenticate?t=${encodeURIComponent(token)}${embed ? '&embed=true' : ''}`);
      return redirect(reply, returnAddress(order.returnUrl, orderId));
    } catch (error) {
      if (error instanceof CardDeclinedError) {
        return sendHtml(reply, 402, payPage(order, token, embed, `Your card was declined (${error.message}). Try another card.`), embed);
      }
      return this.failed(reply, error, embed);
    }
  }

  @Get('pay/:orderId/authenticate')
  async authenticatePage(@Param('orderId') orderId: string, @Query('t') token: string | undefined, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage('Payment page not found', 'This payment link is not valid.', isEmbed(embed)), isEmbed(embed));
    const closed = this.closedPage(order, isEmbed(embed));
    if (closed) return sendHtml(reply, 200, closed, isEmbed(embed));
    if (order.status !== 'REQUIRES_ACTION') return redirect(reply, `/pay/${orderId}?t=${encodeURIComponent(token!)}${isEmbed(embed) ? '&embed=true' : ''}`);
    sendHtml(reply, 200, authenticationPage(order, token!, isEmbed(embed)), isEmbed(embed));
  }

  @Post('pay/:orderId/authenticate')
  async authenticate(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage('Payment page not found', 'This payment link is not valid.', embed), embed);
    try {
      await this.commands.execute(new CompleteAuthenticationCommand(orderId, token, commandContext(request, null)));
      return redirect(reply, returnAddress(order.returnUrl, orderId));
    } catch (error) {
      return this.failed(reply, error, embed);
    }
  }

  @Post('pay/:orderId/wallet')
  async wallet(@Param('orderId') orderId: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const token = form?.t ?? '';
    const order = await this.openOrder(orderId, token);
    if (!order) return sendHtml(reply, 404, messagePage('Payment page not found', 'This payment link is not valid.', embed), embed);
    // Cancel: back to the merchant with the order still OPEN (the merchant checks the status; only PAID means paid).
    if (form?.decision !== 'approve') return redirect(reply, returnAddress(order.returnUrl, orderId));
    try {
      await this.commands.execute(new ApproveWalletPaymentCommand(orderId, token, commandContext(request, null)));
      return redirect(reply, returnAddress(order.returnUrl, orderId));
    } catch (error) {
      return this.failed(reply, error, embed);
    }
  }

  @Get('checkout/:slug')
  async paymentLink(@Param('slug') slug: string, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const link = await this.queries.paymentLink(slug).catch(() => null);
    if (!link) return sendHtml(reply, 404, messagePage('Checkout not found', 'This checkout link does not exist.', isEmbed(embed)), isEmbed(embed));
    sendHtml(reply, 200, paymentLinkPage(link, isEmbed(embed)), isEmbed(embed));
  }

  @Post('checkout/:slug')
  async startPaymentLink(@Param('slug') slug: string, @Body() form: Form, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const embed = isEmbed(form?.embed);
    const link = await this.queries.paymentLink(slug).catch(() => null);
    if (!link) return sendHtml(reply, 404, messagePage('Checkout not found', 'This checkout link does not exist.', embed), embed);
    try {
      const order = await this.commands.execute(new StartPaymentLinkOrderCommand(link, embed, commandContext(request, null)));
      return redirect(reply, `/pay/${order.orderId}?t=${order.pageToken ?? ''}${embed ? '&embed=true' : ''}`);
    } catch (error) {
      return this.failed(reply, error, embed);
    }
  }

  @Get('checkout/:slug/complete')
  async paymentLinkComplete(@Param('slug') slug: string, @Query('order') orderId: string | undefined, @Query('embed') embed: string | undefined, @Res() reply: FastifyReply) {
    const order = orderId ? await this.queries.order(orderId).catch(() => null) : null;
    const paid = order?.status === 'PAID' && order.externalOrderRef === `payment_link:${slug}`;
    sendHtml(
      reply,
      200,
      messagePage(paid ? 'Payment received' : 'Payment not completed', paid ? 'Thank you: your payment was received.' : 'The payment was not completed.', isEmbed(embed)),
      isEmbed(embed),
    );
  }

  /** The order, when the page token matches it; null otherwise (the page then answers 404). */
  private async openOrder(orderId: string, token: string | undefined): Promise<OrderView | null> {
    const order = await this.queries.order(orderId).catch(() => null);
    if (!order || order.renewal || !sameSecret(token ?? '', order.pageToken)) return null;
    return order;
  }

  private closedPage(order: OrderView, embed: boolean): string | null {
    const back = { href: returnAddress(order.returnUrl, order.id), label: 'Return to the merchant' };
    if (order.status === 'PAID') return messagePage('Already paid', 'This order has been paid. Thank you.', embed, back);
    if (order.status === 'EXPIRED') return messagePage('Checkout expired', 'This checkout has expired. Return to the merchant to start again.', embed, back);
    if (order.status === 'FAILED') return messagePage('Payment failed', 'This payment failed.', embed, back);
    return null;
  }

  private failed(reply: FastifyReply, error: unknown, embed: boolean): void {
    if (error instanceof DomainError) {
      const status = error.kind === 'conflict' ? 409 : error.kind === 'not_found' ? 404 : error.kind === 'unavailable' ? 503 : 422;
      return sendHtml(reply, status, messagePage('Payment not possible', error.message, embed), embed);
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
