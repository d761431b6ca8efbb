import { Body, Controller, Get, HttpCode, Options, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { ConfirmResultDto, OrderStatusDto, SubscriptionDto } from './checkout.response.dto';
import {
  CardDeclinedError,
  CheckoutClientSecretInvalidError,
  CheckoutConfirmNeedsCardError,
  CheckoutOrderNotFoundError,
  CheckoutOrderNotPayableError,
  CheckoutPaymentInProgressError,
  CheckoutChargeVoidedError,
  CheckoutSubscriptionNotFoundError,
  PaymentProcessorUnavailableError,
} from '../domain/checkout.errors';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { commandContext, Public } from '../../identity';
import { CancelSubscriptionMessage } from '../application/cancel-subscription.handler';
import { CheckoutQueries, orderStatusOf, subscriptionRecordOf } from '../application/checkout-queries';
import { ConfirmEmbeddedPaymentMessage } from '../application/confirm-embedded-payment.handler';
import { ConfirmPaymentRequestDto } from './checkout.request.dto';

/** The embedded component runs on the merchant's origin: the buyer-facing calls allow any origin (no cookies are used). */
function allowAnyOrigin(reply: FastifyReply): void {
  void reply.header('Access-Control-Allow-Origin', '*');
}

@ApiTags('checkout (public)')
@Public()
@Controller('api/commerce/checkout')
export class PublicCheckoutController {
  constructor(
    private readonly queries: CheckoutQueries,
    private readonly commands: CommandBus,
  ) {}

  @ApiData(OrderStatusDto)
  @ApiErrors(CheckoutOrderNotFoundError)
  @Get('orders/:orderId/status')
  @ApiOperation({ summary: 'Order status (public): status, amountMinorUnits, currency, subscriptionId. PAID is the only fulfilment signal' })
  async status(@Param('orderId') orderId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    allowAnyOrigin(reply);
    return orderStatusOf(await this.queries.order(orderId));
  }

  @Options('orders/:orderId/confirm')
  @HttpCode(204)
  @ApiExcludeEndpoint() // the CORS preflight of confirm, not an operation
  preflight(@Res({ passthrough: true }) reply: FastifyReply) {
    allowAnyOrigin(reply);
    void reply.header('Access-Control-Allow-Methods', 'POST, OPTIONS').header('Access-Control-Allow-Headers', 'content-type').header('Access-Control-Max-Age', '600');
    return undefined;
  }

  @ApiData(ConfirmResultDto)
  @ApiErrors(
    CheckoutOrderNotFoundError,
    CheckoutClientSecretInvalidError,
    CheckoutConfirmNeedsCardError,
    CheckoutOrderNotPayableError,
    CheckoutPaymentInProgressError,
    CheckoutChargeVoidedError,
    CardDeclinedError,
    PaymentProcessorUnavailableError,
  )
  @Post('orders/:orderId/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Pay an EMBEDDED order with a card (public; the clientSecret is the credential): PAID, or REQUIRES_ACTION with nextAction.redirectUrl; a decline is 422 CARD_DECLINED and the order stays OPEN. One payment at a time: while another confirm of the order waits for the processor, 409 CHECKOUT_PAYMENT_IN_PROGRESS (nothing charged); a charge the order could no longer take (it expired meanwhile) is voided, 409 CHECKOUT_CHARGE_VOIDED',
  })
  confirm(@Param('orderId') orderId: string, @Body() body: ConfirmPaymentRequestDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    allowAnyOrigin(reply);
    return this.commands.execute(new ConfirmEmbeddedPaymentMessage(orderId, body.clientSecret, body.card, commandContext(request, null)));
  }

  @ApiData(SubscriptionDto)
  @ApiErrors(CheckoutSubscriptionNotFoundError)
  @Get('subscriptions/:subscriptionId')
  @ApiOperation({ summary: 'Read a subscription (public; the subscriptionId is the credential)' })
  async subscription(@Param('subscriptionId') subscriptionId: string) {
    return subscriptionRecordOf(await this.queries.subscription(subscriptionId));
  }

  @ApiData(SubscriptionDto)
  @ApiErrors(CheckoutSubscriptionNotFoundError)
  @Post('subscriptions/:subscriptionId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a subscription (public, idempotent: a cancelled one returns its current state)' })
  cancel(@Param('subscriptionId') subscriptionId: string, @Req() request: FastifyRequest) {
    return this.commands.execute(new CancelSubscriptionMessage(subscriptionId, commandContext(request, null)));
  }
}
