import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnyApiKeyOrSessionAuth, CurrentPrincipal, type Principal } from '../../identity';
import { assertWindow, isoInstant } from '../../platform/http/iso-instant';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { WebhookEventsQuery } from '../application/webhook-events.query';
import { WebhookEventNotFoundError } from '../domain/webhooks.errors';
import { WebhookEventsQueryDto } from './webhook-endpoint.request.dto';
import { WebhookDeliveryBodyDto } from './webhooks.response.dto';

/** The events API (issue 28, docs/webhooks.md#events-api): what the company's webhooks carry, to list and to catch up on. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/commerce/events')
export class WebhookEventsController {
  constructor(private readonly events: WebhookEventsQuery) {}

  @ApiData(WebhookDeliveryBodyDto, { isArray: true })
  @Get()
  @AnyApiKeyOrSessionAuth()
  @ApiOperation({
    summary:
      "The events the company's webhooks carry (whether or not an endpoint received them), oldest first, each exactly as a delivery's body (same evt_ id); page with ?after=<last id>: a walk sees every event once while new ones arrive (API key of any scope, or session)",
  })
  async list(@Query() query: WebhookEventsQueryDto, @CurrentPrincipal() principal: Principal) {
    const from = isoInstant(query.from, 'from');
    const to = isoInstant(query.to, 'to');
    assertWindow(from, to);
    return this.events.list(principal.companyId, { type: query.type, from, to, after: query.after, limit: query.limit ?? 20 });
  }

  @ApiData(WebhookDeliveryBodyDto)
  @ApiErrors(WebhookEventNotFoundError)
  @Get(':id')
  @AnyApiKeyOrSessionAuth()
  @ApiOperation({ summary: 'One event of the company, as its deliveries carry it' })
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.events.get(principal.companyId, id);
  }
}
