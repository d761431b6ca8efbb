import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { CheckoutEmbeddedNeedsCardError, CheckoutSubscriptionNeedsCardError, PaymentProcessorUnavailableError } from '../domain/checkout.errors';
import { CheckoutCreatedDto } from './checkout.response.dto';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuth, commandContext, CurrentPrincipal, type Principal } from '../../identity';
import { CreateCheckoutCommand } from '../application/create-checkout.handler';
import { CreateCheckoutRequestDto } from './checkout.request.dto';
import { CreateCheckoutBody, CreateCheckoutBodyPipe } from './create-checkout.body-pipe';
import { IdempotentRoute } from '../../platform/http/idempotency-key';

@ApiTags('checkout')
@ApiBearerAuth()
@ApiKeyAuth('checkout:write')
@Controller('api/commerce/integration/checkout')
export class IntegrationCheckoutController {
  constructor(private readonly commands: CommandBus) {}

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
  ) {
    const { response, replayed } = await this.commands.execute(
      new CreateCheckoutCommand(
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
        },
        commandContext(request, principal),
      ),
    );
    if (replayed) void reply.status(200).header('Idempotent-Replayed', 'true');
    return response;
  }
}
