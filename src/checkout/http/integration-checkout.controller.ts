import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import {
  CheckoutEmbeddedNeedsCardError,
  CheckoutOrderNotFoundError,
  CheckoutOrderNotRefundableError,
  CheckoutRefundExceedsCapturedError,
  CheckoutSubscriptionNeedsCardError,
  PaymentProcessorUnavailableError,
} from '../domain/checkout.errors';
import { CheckoutCreatedDto, RefundDto } from './checkout.response.dto';
import { CheckoutQueries, RefundRecordView } from '../application/checkout-queries';
import { RefundOrderMessage } from '../application/refund-order.handler';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuth, ApiKeyOrSessionAuth, commandContext, CurrentPrincipal, FINANCE, type Principal, Roles } from '../../identity';
import { CreateCheckoutMessage } from '../application/create-checkout.handler';
import { CreateCheckoutRequestDto, RefundOrderRequestDto } from './checkout.request.dto';
import { CreateCheckoutBody, CreateCheckoutBodyPipe } from './create-checkout.body-pipe';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import type { Enveloped } from '../../platform/http/envelope';

@ApiTags('checkout')
@ApiBearerAuth()
@ApiKeyAuth('checkout:write')
@Controller('api/commerce/integration/checkout')
export class IntegrationCheckoutController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: CheckoutQueries,
  ) {}

  @ApiData(CheckoutCreatedDto, { replayed: true })
  @ApiErrors(CheckoutEmbeddedNeedsCardError, CheckoutSubscriptionNeedsCardError, PaymentProcessorUnavailableError, IdempotencyKeyReusedError)
  @IdempotentRoute()
  @Post()
  @ApiOperation({
    summary: 'Create a checkout order (201); the same idempotencyKey returns the existing order (200, Idempotent-Replayed: true)',
  })
  @ApiBody({ type: CreateCheckoutRequestDto })
  async createCheckout(
    @Body(CreateCheckoutBodyPipe) body: CreateCheckoutBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(async () => {
      const { response, replayed } = await this.commands.execute(
        new CreateCheckoutMessage(
          principal.companyId,
          {
            amountMinorUnits: body.amountMinorUnits,
            currency: body.currency,
            provider: body.provider,
            returnUrl: body.returnUrl,
            checkoutMode: body.checkoutMode ?? 'REDIRECT',
            externalOrderRef: body.externalOrderRef ?? null,
            idempotencyKey: body.idempotencyKey ?? null,
            subscriptionIntervalUnit: body.subscriptionIntervalUnit ?? null,
            customerEmail: body.customerEmail ?? null,
          },
          commandContext(request, principal),
        ),
      );
      if (replayed) void reply.status(200).header('Idempotent-Replayed', 'true');
      return response;
    });
  }

  @ApiData(RefundDto, { replayed: true })
  @ApiErrors(CheckoutOrderNotFoundError, CheckoutOrderNotRefundableError, CheckoutRefundExceedsCapturedError, IdempotencyKeyReusedError)
  @IdempotentRoute()
  // The dashboard refunds with the merchant's session (issue 26 item 5); integrations with an API key.
  @ApiKeyOrSessionAuth('checkout:write')
  @Post('orders/:orderId/refunds')
  @Roles(...FINANCE)
  @ApiOperation({
    summary:
      'Refund (part of) a PAID order through the processor that took the payment (201, status succeeded or failed, or pending while the processor has not answered); the same idempotencyKey and request answer that refund again (200, Idempotent-Replayed: true)',
  })
  async refund(
    @Param('orderId') orderId: string,
    @Body() body: RefundOrderRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() once: OnceByKey,
  ): Promise<RefundRecordView | Enveloped> {
    return once(async () => {
      const before = await this.queries.refunds(orderId, principal.companyId);
      const refundId: string = await this.commands.execute(
        new RefundOrderMessage(
          orderId,
          principal.companyId,
          { amountMinorUnits: body.amountMinorUnits, reason: body.reason ?? null, idempotencyKey: body.idempotencyKey },
          commandContext(request, principal),
        ),
      );
      if (before.some((r) => r.refundId === refundId)) void reply.status(200).header('Idempotent-Replayed', 'true');
      return this.queries.refund(refundId, principal.companyId);
    });
  }

  @ApiData(RefundDto, { isArray: true })
  @ApiErrors(CheckoutOrderNotFoundError)
  @ApiKeyOrSessionAuth('checkout:write')
  @Get('orders/:orderId/refunds')
  @ApiOperation({ summary: "The order's refunds, oldest first, with their status (pending, succeeded, failed)" })
  refunds(@Param('orderId') orderId: string, @CurrentPrincipal() principal: Principal): Promise<RefundRecordView[]> {
    return this.queries.refunds(orderId, principal.companyId);
  }
}
