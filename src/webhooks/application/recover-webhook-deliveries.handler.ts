import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WebhookEndpointDisabledError } from '../domain/webhooks.errors';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookDeliveriesQuery } from './webhook-deliveries.query';
import { WebhookEndpointQueries } from './webhook-endpoint-queries';

/** Failed deliveries one call redelivers at most; the answer says how many are left, so the caller can call again. */
export const MAX_RECOVERED_PER_CALL = 500;

export interface RecoverResult {
  recovered: number;
  /** Failed deliveries since `since` left for another call (beyond MAX_RECOVERED_PER_CALL). */
  remaining: number;
}

/**
 * After an outage of the receiver: sends every failed delivery of an endpoint created since a time
 * again, oldest first, each with a fresh retry schedule (the same as redelivering each one).
 */
export class RecoverWebhookDeliveriesCommand extends Command<RecoverResult> {
  constructor(
    readonly companyId: string,
    readonly endpointId: string,
    /** ISO timestamp, normalised. */
    readonly since: string,
    readonly requestedBy: string,
  ) {
    super();
  }
}

@CommandHandler(RecoverWebhookDeliveriesCommand)
export class RecoverWebhookDeliveriesHandler implements ICommandHandler<RecoverWebhookDeliveriesCommand> {
  constructor(
    private readonly endpoints: WebhookEndpointQueries,
    private readonly deliveries: WebhookDeliveries,
    private readonly query: WebhookDeliveriesQuery,
  ) {}

  async execute({ companyId, endpointId, since, requestedBy }: RecoverWebhookDeliveriesCommand): Promise<RecoverResult> {
    const endpoint = await this.endpoints.get(companyId, endpointId);
    // A disabled endpoint gets no attempts: recovering would leave the deliveries pending for nothing.
    if (!endpoint.enabled) throw new WebhookEndpointDisabledError();
    const failed = await this.query.failedSince(endpointId, since);
    const chosen = failed.slice(0, MAX_RECOVERED_PER_CALL);
    for (const delivery of chosen) await this.deliveries.redeliver(delivery.id, requestedBy);
    return { recovered: chosen.length, remaining: failed.length - chosen.length };
  }
}
