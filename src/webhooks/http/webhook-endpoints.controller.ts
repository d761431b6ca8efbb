import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { WebhookEndpointDisabledError, WebhookEndpointLimitError, WebhookEndpointNotFoundError } from '../domain/webhooks.errors';
import { WebhookUrlRejectedError } from '../infrastructure/ssrf-guard';
import { WebhookDeliveryDto, WebhookEndpointDeletedDto, WebhookEndpointDto, WebhookRecoverResultDto, WebhookTestResultDto } from './webhooks.response.dto';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendListOrCsv } from '../../platform/http/list-export';
import { DELIVERY_LOG_CSV } from './delivery-log.csv';
import { actorOf, commandContext, CurrentPrincipal, DEVELOPERS, type Principal, Roles, SessionAuth } from '../../identity';
import { assertWindow, isoInstant } from '../../platform/http/iso-instant';
import { pageOf } from '../../platform/http/pagination';
import { RecoverWebhookDeliveriesMessage } from '../application/recover-webhook-deliveries.handler';
import { CreateWebhookEndpointMessage } from '../application/create-webhook-endpoint.handler';
import { DeleteWebhookEndpointMessage } from '../application/delete-webhook-endpoint.handler';
import { TestWebhookEndpointMessage } from '../application/test-webhook-endpoint.handler';
import { UpdateWebhookEndpointMessage } from '../application/update-webhook-endpoint.handler';
import { WebhookEndpointQueries } from '../application/webhook-endpoint-queries';
import { WebhookDeliveriesQuery } from '../application/webhook-deliveries.query';
import { CreateWebhookEndpointRequestDto, DeliveriesQueryDto, RecoverDeliveriesRequestDto, UpdateWebhookEndpointRequestDto } from './webhook-endpoint.request.dto';

@ApiTags('webhooks')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/webhooks/endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly endpoints: WebhookEndpointQueries,
    private readonly deliveries: WebhookDeliveriesQuery,
  ) {}

  @ApiData(WebhookEndpointDto)
  @ApiErrors(WebhookUrlRejectedError, WebhookEndpointLimitError)
  @Post()
  @Roles(...DEVELOPERS)
  @ApiOperation({ summary: 'Register an endpoint (starts on probation); at most 10 per company (422 WEBHOOK_ENDPOINT_LIMIT)' })
  create(@Body() body: CreateWebhookEndpointRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new CreateWebhookEndpointMessage(principal.companyId, body.url, body.eventTypes, commandContext(request, principal)));
  }

  @ApiData(WebhookEndpointDto, { isArray: true })
  @Get()
  @ApiOperation({ summary: "The company's endpoints" })
  list(@CurrentPrincipal() principal: Principal) {
    return this.endpoints.list(principal.companyId);
  }

  @ApiData(WebhookEndpointDto)
  @ApiErrors(WebhookEndpointNotFoundError, WebhookUrlRejectedError)
  @Patch(':id')
  @Roles(...DEVELOPERS)
  @ApiOperation({ summary: 'Disable or re-enable, change the subscribed event types or the URL' })
  update(@Param('id') id: string, @Body() body: UpdateWebhookEndpointRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new UpdateWebhookEndpointMessage(principal.companyId, id, body, commandContext(request, principal)));
  }

  @ApiData(WebhookEndpointDeletedDto)
  @ApiErrors(WebhookEndpointNotFoundError)
  @Delete(':id')
  @Roles(...DEVELOPERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove the endpoint and its delivery history' })
  remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new DeleteWebhookEndpointMessage(principal.companyId, id, commandContext(request, principal)));
  }

  @ApiData(WebhookTestResultDto)
  @ApiErrors(WebhookEndpointNotFoundError)
  @Post(':id/test')
  @Roles(...DEVELOPERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a real signed webhook.test delivery now; a 2xx ends probation' })
  test(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.commands.execute(new TestWebhookEndpointMessage(principal.companyId, id));
  }

  @ApiPage(WebhookDeliveryDto)
  @ApiErrors(WebhookEndpointNotFoundError)
  @Get(':id/deliveries')
  @ApiOperation({
    summary:
      'Deliveries to this endpoint, newest first, paged, filtered by status, event type and creation time; each attempt with its request headers and body, response status, latency and error; Accept: text/csv exports every matching delivery (one row each, without the attempts)',
  })
  @ApiProduces('application/json', 'text/csv')
  async listDeliveries(
    @Param('id') id: string,
    @Query() query: DeliveriesQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const from = isoInstant(query.from, 'from');
    const to = isoInstant(query.to, 'to');
    assertWindow(from, to);
    await this.endpoints.get(principal.companyId, id);
    const list = (page: number, limit: number) => this.deliveries.list(id, page, limit, { status: query.status, eventType: query.eventType, from, to });
    await sendListOrCsv(request, reply, { filename: 'webhook-deliveries.csv', columns: DELIVERY_LOG_CSV }, list, pageOf(query));
  }

  @ApiData(WebhookRecoverResultDto)
  @ApiErrors(WebhookEndpointNotFoundError, WebhookEndpointDisabledError)
  @Post(':id/recover')
  @Roles(...DEVELOPERS)
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Redeliver every failed delivery to this endpoint created in [since, until] (oldest first, at most 500 a call; remaining says how many are left); replayMissed also sends the events of the window that never reached it; dryRun only counts',
  })
  recover(@Param('id') id: string, @Body() body: RecoverDeliveriesRequestDto, @CurrentPrincipal() principal: Principal) {
    const since = isoInstant(body.since, 'since');
    const until = isoInstant(body.until, 'until');
    assertWindow(since, until);
    const options = { until, replayMissed: body.replayMissed, dryRun: body.dryRun };
    return this.commands.execute(new RecoverWebhookDeliveriesMessage(principal.companyId, id, since, actorOf(principal), options));
  }
}
