import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { commandContext, Public } from '../../identity';
import { sendPage } from '../../platform/http/security-headers';
import { CancelSubscriptionMessage } from '../application/cancel-subscription.handler';
import { CheckoutQueries } from '../application/checkout-queries';
import { CheckoutSubscriptionNotFoundError } from '../domain/checkout.errors';
import { SubscriptionView } from '../projections/checkout-read-model.projection';
import { messagePage } from './hosted-pages.html';
import { cancelSubscriptionPage, manageAddress, subscriptionPage } from './subscription-pages.html';

/** The subscription, or null when there is none by this id (any other failure is the error filter's). */
export function findSubscription(queries: CheckoutQueries, subscriptionId: string): Promise<SubscriptionView | null> {
  return queries.subscription(subscriptionId).catch((error: unknown) => {
    if (error instanceof CheckoutSubscriptionNotFoundError) return null;
    throw error;
  });
}

const NOT_FOUND = messagePage('Subscription not found', 'This subscription link is not valid. Use the link on your receipt, or ask the merchant.', false);

/**
 * The buyer's subscription page and its cancel (issue 29 item 8): reached from the receipt; the subscriptionId is the
 * credential, as for GET/POST /api/commerce/checkout/subscriptions/:id. Plain forms: they work without script.
 */
@ApiExcludeController()
@Public()
@Controller('subscriptions')
export class SubscriptionPagesController {
  constructor(
    private readonly queries: CheckoutQueries,
    private readonly commands: CommandBus,
  ) {}

  @Get(':subscriptionId')
  async show(@Param('subscriptionId') subscriptionId: string, @Query('cancelled') cancelled: string | undefined, @Res() reply: FastifyReply) {
    const sub = await this.find(subscriptionId);
    if (!sub) return sendPage(reply, 404, NOT_FOUND, 'none');
    const notice = cancelled === '1' && sub.status === 'CANCELLED' ? 'Your subscription is cancelled. You will not be charged again.' : null;
    sendPage(reply, 200, subscriptionPage(sub, await this.queries.merchantName(sub.merchantCompanyId), notice), 'none');
  }

  @Get(':subscriptionId/cancel')
  async confirmCancel(@Param('subscriptionId') subscriptionId: string, @Res() reply: FastifyReply) {
    const sub = await this.find(subscriptionId);
    if (!sub) return sendPage(reply, 404, NOT_FOUND, 'none');
    if (sub.status !== 'ACTIVE') return this.redirect(reply, manageAddress(subscriptionId));
    sendPage(reply, 200, cancelSubscriptionPage(sub, await this.queries.merchantName(sub.merchantCompanyId)), 'none');
  }

  @Post(':subscriptionId/cancel')
  async cancel(@Param('subscriptionId') subscriptionId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const sub = await this.find(subscriptionId);
    if (!sub) return sendPage(reply, 404, NOT_FOUND, 'none');
    await this.commands.execute(new CancelSubscriptionMessage(subscriptionId, commandContext(request, null)));
    this.redirect(reply, `${manageAddress(subscriptionId)}?cancelled=1`);
  }

  private find(subscriptionId: string): Promise<SubscriptionView | null> {
    return findSubscription(this.queries, subscriptionId);
  }

  private redirect(reply: FastifyReply, location: string): void {
    void reply.status(303).header('Location', location).header('Cache-Control', 'no-store').send();
  }
}
