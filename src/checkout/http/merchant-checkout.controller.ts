import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiPage } from '../../platform/http/openapi';
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
  @ApiOperation({ summary: "The caller's Checkout orders, newest first, paged; ?status= and ?externalOrderRef= narrow (never the buyer's page token or client secret)" })
  orders(@Query() query: OrderListQueryDto, @CurrentPrincipal() principal: Principal) {
    const { page, limit } = pageOf(query);
    return this.lists.orders(principal.companyId, query.status, page, limit, query.externalOrderRef);
  }

  @ApiPage(MerchantSubscriptionDto)
  @Get('subscriptions')
  @ApiOperation({ summary: "The caller's subscriptions, newest first, paged; ?status= narrows" })
  subscriptions(@Query() query: SubscriptionListQueryDto, @CurrentPrincipal() principal: Principal) {
    const { page, limit } = pageOf(query);
    return this.lists.subscriptions(principal.companyId, query.status, page, limit);
  }
}
