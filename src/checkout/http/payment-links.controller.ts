import { Body, Controller, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData } from '../../platform/http/openapi';
import { PaymentLinkCreatedDto } from './checkout.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { CreatePaymentLinkCommand } from '../application/create-payment-link.handler';
import { CreatePaymentLinkRequestDto } from './checkout.request.dto';

@ApiTags('checkout')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/payment-links')
export class PaymentLinksController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(PaymentLinkCreatedDto)
  @Post()
  @ApiOperation({ summary: 'Create a hosted checkout link (session): {slug, url}; append ?embed=true to place it in an iframe' })
  create(@Body() body: CreatePaymentLinkRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new CreatePaymentLinkCommand(principal.companyId, body, commandContext(request, principal)));
  }
}
