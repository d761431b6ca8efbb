import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { actorOf, commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { WebhookDeliveries } from '../application/webhook-deliveries';
import { WebhookDeliveriesQuery } from '../application/webhook-deliveries.query';

@ApiTags('webhooks')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/webhooks/deliveries')
export class WebhookDeliveriesController {
  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly query: WebhookDeliveriesQuery,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Post(':id/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a delivery again now, with a fresh retry schedule (same delivery id)' })
  async redeliver(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    await this.query.get(id, principal.companyId);
    await this.readYourWrites.after(await this.deliveries.redeliver(id, actorOf(principal), commandContext(request, principal)));
    return this.query.get(id, principal.companyId);
  }
}
