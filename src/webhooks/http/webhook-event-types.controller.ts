import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity';
import { ApiData } from '../../platform/http/openapi';
import { WEBHOOK_EVENT_CATALOGUE } from '../domain/webhook-event-catalogue';
import { WebhookEventTypeDto } from './webhooks.response.dto';

@ApiTags('webhooks')
@Controller('api/commerce/webhooks/event-types')
export class WebhookEventTypesController {
  @ApiData(WebhookEventTypeDto, { isArray: true })
  @Get()
  @Public()
  @ApiOperation({ summary: 'The webhook event catalogue: every event type with what it means and an example delivery body' })
  list() {
    return WEBHOOK_EVENT_CATALOGUE;
  }
}
