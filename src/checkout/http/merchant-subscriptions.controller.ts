import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyOrSessionAuth, commandContext, CurrentPrincipal, FINANCE, type Principal, Roles } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { MerchantCancelSubscriptionMessage } from '../application/merchant-cancel-subscription.handler';
import { CheckoutSubscriptionNotFoundError } from '../domain/checkout.errors';
import { MerchantSubscriptionDto } from './checkout.response.dto';

/**
 * The merchant's own acts on its subscriptions (issue 29 item 6): the dashboard with a session (owner, admin and finance
 * members, like refunds), an integration with an API key of scope checkout:write.
 */
@ApiTags('checkout')
@ApiBearerAuth()
@Controller('api/commerce/integration/checkout/subscriptions')
export class MerchantSubscriptionsController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(MerchantSubscriptionDto)
  @ApiErrors(CheckoutSubscriptionNotFoundError)
  @ApiKeyOrSessionAuth('checkout:write')
  @Post(':subscriptionId/cancel')
  @HttpCode(200)
  @Roles(...FINANCE)
  @ApiOperation({
    summary:
      "The merchant cancels one of its subscriptions (cancellationReason MERCHANT_REQUEST): no renewal is charged after it, nothing paid is refunded. Idempotent: a cancelled subscription answers its current state; another merchant's is 404",
  })
  cancel(@Param('subscriptionId') subscriptionId: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new MerchantCancelSubscriptionMessage(subscriptionId, principal.companyId, commandContext(request, principal)));
  }
}
