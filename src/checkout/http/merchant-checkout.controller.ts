import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendListOrCsv } from '../../platform/http/list-export';
import { ORDER_LIST_CSV } from './order-list.csv';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { assertWindow, isoInstant } from '../../platform/http/iso-instant';
import { CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { pageOf } from '../../platform/http/pagination';
import { MerchantListsQuery } from '../application/merchant-lists.query';
import { OrderListQueryDto, SubscriptionListQueryDto } from './checkout.request.dto';
import { MerchantOrderDto, MerchantSubscriptionDto } from './checkout.response.dto';

/** The merchant dashboard's lists (session): its orders and subscriptions, newest first. */
@ApiTags('checkout')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/checkout')
export class MerchantCheckoutController {
  constructor(private readonly lists: MerchantListsQuery) {}

  @ApiPage(MerchantOrderDto)
  @Get('orders')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary:
      "The caller's Checkout orders, newest first, paged; ?status=, ?externalOrderRef= and the creation window ?from= (inclusive) ?to= (exclusive) narrow (never the buyer's page token or client secret); Accept: text/csv exports every one",
  })
  async orders(@Query() query: OrderListQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const window = { from: isoInstant(query.from, 'from'), to: isoInstant(query.to, 'to') };
    assertWindow(window.from, window.to);
    const list = (page: number, limit: number) => this.lists.orders(principal.companyId, query.status, page, limit, query.externalOrderRef, window);
    await sendListOrCsv(request, reply, { filename: 'orders.csv', columns: ORDER_LIST_CSV }, list, pageOf(query));
  }

  @ApiData(MerchantOrderDto)
  @ApiErrors(CheckoutOrderNotFoundError)
  @Get('orders/:orderId')
  @ApiOperation({ summary: "One of the caller's orders, as the list shows it (its detail page); another merchant's order is 404" })
  order(@Param('orderId') orderId: string, @CurrentPrincipal() principal: Principal) {
    return this.lists.order(principal.companyId, orderId);
  }

  @ApiPage(MerchantSubscriptionDto)
  @Get('subscriptions')
  @ApiOperation({ summary: "The caller's subscriptions, newest first, paged; ?status= narrows" })
  subscriptions(@Query() query: SubscriptionListQueryDto, @CurrentPrincipal() principal: Principal) {
    const { page, limit } = pageOf(query);
    return this.lists.subscriptions(principal.companyId, query.status, page, limit);
  }
}
