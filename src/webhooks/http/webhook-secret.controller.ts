import { Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData } from '../../platform/http/openapi';
import { WebhookSecretDto } from './webhooks.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, DEVELOPERS, type Principal, Roles, SessionAuth } from '../../identity';
import { CompanyWebhooks } from '../application/company-webhook-settings';
import { RotateWebhookSecretMessage } from '../application/rotate-webhook-secret.handler';

@ApiTags('webhooks')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/webhooks/secret')
export class WebhookSecretController {
  constructor(
    private readonly company: CompanyWebhooks,
    private readonly commands: CommandBus,
  ) {}

  @ApiData(WebhookSecretDto)
  @Get()
  @Roles(...DEVELOPERS)
  @ApiOperation({ summary: "The company's signing secret (one for all its endpoints)" })
  async get(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return { secret: await this.company.secret(principal.companyId, commandContext(request, principal)) };
  }

  @ApiData(WebhookSecretDto)
  @Post('rotate')
  @Roles(...DEVELOPERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Replace the signing secret; the old one stops verifying at once' })
  rotate(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new RotateWebhookSecretMessage(principal.companyId, commandContext(request, principal)));
  }
}
