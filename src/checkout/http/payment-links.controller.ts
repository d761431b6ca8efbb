import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiPage } from '../../platform/http/openapi';
import { PaymentLinkCreatedDto, PaymentLinkDto } from './checkout.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { CreatePaymentLinkMessage } from '../application/create-payment-link.handler';
import { MerchantListsQuery } from '../application/merchant-lists.query';
import { PageQueryDto, pageOf } from '../../platform/http/pagination';
import { CreatePaymentLinkRequestDto } from './checkout.request.dto';

@ApiTags('checkout')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/payment-links')
export class PaymentLinksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly lists: MerchantListsQuery,
  ) {}

  @ApiData(PaymentLinkCreatedDto)
  @Post()
  @ApiOperation({ summary: 'Create a hosted checkout link (session): {slug, url}; append ?embed=true to place it in an iframe' })
  create(@Body() body: CreatePaymentLinkRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new CreatePaymentLinkMessage(principal.companyId, body, commandContext(request, principal)));
  }

  @ApiPage(PaymentLinkDto)
  @Get()
  @ApiOperation({ summary: "The caller's payment links, newest first, paged: slug, url, title, amount, currency, provider, createdAt" })
  list(@Query() query: PageQueryDto, @CurrentPrincipal() principal: Principal) {
    const { page, limit } = pageOf(query);
    return this.lists.paymentLinks(principal.companyId, page, limit);
  }
}
