import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { deterministicId, newId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { TEST_EVENT_TYPE } from '../domain/webhook-event-types';
import { companyWebhooksStreamId } from '../domain/webhooks.events';
import { AttemptOutcome, WebhookDeliveryWorker } from './webhook-delivery-worker';
import { WebhookDeliveries } from './webhook-deliveries';
import { EndpointResponse, WebhookEndpointQueries } from './webhook-endpoint-queries';

export type WebhookTestResult = Omit<AttemptOutcome, 'skipped'> & { endpoint: EndpointResponse };

/** A real, signed `webhook.test` delivery, attempted now; a 2xx ends probation. */
export class TestWebhookEndpointMessage extends Command<WebhookTestResult> {
  constructor(
    readonly companyId: string,
    readonly endpointId: string,
  ) {
    super();
  }
}

@CommandHandler(TestWebhookEndpointMessage)
export class TestWebhookEndpointHandler implements ICommandHandler<TestWebhookEndpointMessage> {
  constructor(
    private readonly endpoints: WebhookEndpointQueries,
    private readonly deliveries: WebhookDeliveries,
    private readonly worker: WebhookDeliveryWorker,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, endpointId }: TestWebhookEndpointMessage): Promise<WebhookTestResult> {
    await this.endpoints.get(companyId, endpointId);
    const now = this.clock.now();
    const eventId = newId('evt', now.getTime());
    const deliveryId = deterministicId('dlv', eventId, endpointId);
    const body = { id: eventId, type: TEST_EVENT_TYPE, createdAt: now.toISOString(), data: { endpointId, message: 'This is a test event from Paysplit.' } };
    await this.deliveries.create(deliveryId, endpointId, companyId, body, { dueNow: false });
    const outcome = await this.worker.sendNow(deliveryId);
    if (!outcome) throw new Error(`test delivery ${deliveryId} could not be claimed`);
    await this.readYourWrites.afterStream(companyWebhooksStreamId(companyId));
    const { skipped: _skipped, ...result } = outcome;
    return { ...result, endpoint: await this.endpoints.get(companyId, endpointId) };
  }
}
