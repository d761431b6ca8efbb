import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { PaymentLinksHandler } from '../application/payment-links.handler';
import { CreatePaymentLinkRequestDto } from './checkout.request.dto';

@ApiTags('checkout')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/payment-links')
export class PaymentLinksController {
  constructor(private readonly links: PaymentLinksHandler) {}

  @Post()
  @ApiOperation({ summary: 'Create a hosted checkout link (session): {slug, url}; append ?embed=true to place it in an iframe' })
  create(@Body() body: CreatePaymentLinkRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.links.create(principal.companyId, body, commandContext(request, principal));
  }
}
