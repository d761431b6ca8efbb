import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { WebhookDeliveryNotFoundError } from '../domain/webhooks.errors';
import { WebhookDeliveryDto } from './webhooks.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { actorOf, CurrentPrincipal, DEVELOPERS, type Principal, Roles, SessionAuth } from '../../identity';
import { RedeliverWebhookMessage } from '../application/redeliver-webhook.handler';

@ApiTags('webhooks')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/webhooks/deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(WebhookDeliveryDto)
  @ApiErrors(WebhookDeliveryNotFoundError)
  @Post(':id/redeliver')
  @Roles(...DEVELOPERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a delivery again now, with a fresh retry schedule (same delivery id)' })
  redeliver(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.commands.execute(new RedeliverWebhookMessage(principal.companyId, id, actorOf(principal)));
  }
}
