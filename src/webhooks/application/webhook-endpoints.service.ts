import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId, newId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { TEST_EVENT_TYPE } from '../domain/webhook-event-types';
import { WebhookEndpointNotFoundError } from '../domain/webhooks.errors';
import { companyWebhooksStreamId } from '../domain/webhooks.events';
import { parseWebhookUrl } from '../infrastructure/ssrf-guard';
import { WEBHOOK_ENDPOINTS, WebhookEndpointView } from '../projections/webhooks-read-model.projection';
import { CompanyWebhooks } from './company-webhooks.repository';
import { WebhookAttemptHandler } from './webhook-attempt.handler';
import { WebhookDeliveries } from './webhook-deliveries';

export const VIEW_FIELDS = ['id', 'url', 'eventTypes', 'enabled', 'onProbation', 'createdAt', 'updatedAt'] as const;
export type EndpointResponse = Pick<WebhookEndpointView, (typeof VIEW_FIELDS)[number]>;

/** Endpoint management (spec 4.9, DESIGN 8). Every change is an event in the company's webhook stream. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly company: CompanyWebhooks,
    private readonly deliveries: WebhookDeliveries,
    private readonly attempts: WebhookAttemptHandler,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(companyId: string, url: string, eventTypes: string[], context: CommandContext): Promise<EndpointResponse> {
    const checked = this.checkUrl(url);
    const now = this.clock.now();
    const endpointId = newId('we', now.getTime());
    await this.company.secret(companyId, context);
    const result = await this.company.run(companyId, { type: 'CreateEndpoint', data: { companyId, endpointId, url: checked, eventTypes, now: now.toISOString() } }, context);
    await this.readYourWrites.after(result);
    return this.get(companyId, endpointId);
  }

  async update(companyId: string, endpointId: string, changes: { url?: string; eventTypes?: string[]; enabled?: boolean }, context: CommandContext) {
    const url = changes.url === undefined ? undefined : this.checkUrl(changes.url);
    const result = await this.company.run(companyId, { type: 'UpdateEndpoint', data: { companyId, endpointId, ...changes, url, now: this.now() } }, context);
    await this.readYourWrites.after(result);
    return this.get(companyId, endpointId);
  }

  async delete(companyId: string, endpointId: string, context: CommandContext): Promise<{ id: string; deleted: true }> {
    const result = await this.company.run(companyId, { type: 'DeleteEndpoint', data: { companyId, endpointId, now: this.now() } }, context);
    await this.readYourWrites.after(result);
    return { id: endpointId, deleted: true };
  }

  async list(companyId: string): Promise<EndpointResponse[]> {
    const endpoints = await this.store.find<WebhookEndpointView>(WEBHOOK_ENDPOINTS, { filter: { companyId }, sort: [{ field: 'createdAt', direction: 'asc' }] });
    return endpoints.map(toResponse);
  }

  async get(companyId: string, endpointId: string): Promise<EndpointResponse> {
    const endpoint = await this.store.get<WebhookEndpointView>(WEBHOOK_ENDPOINTS, endpointId);
    if (!endpoint || endpoint.companyId !== companyId) throw new WebhookEndpointNotFoundError();
    return toResponse(endpoint);
  }

  /** A real, signed `webhook.test` delivery, attempted now; a 2xx ends probation. */
  async test(companyId: string, endpointId: string, context: CommandContext) {
    await this.get(companyId, endpointId);
    const now = this.clock.now();
    const eventId = newId('evt', now.getTime());
    const deliveryId = deterministicId('dlv', eventId, endpointId);
    const body = { id: eventId, type: TEST_EVENT_TYPE, createdAt: now.toISOString(), data: { endpointId, message: 'This is a test event from Paysplit.' } };
    await this.deliveries.create(deliveryId, endpointId, companyId, body, context, { scheduleFirstAttempt: false });
    const outcome = await this.attempts.attempt({ deliveryId, seriesStart: 1, attempt: 1 });
    await this.readYourWrites.afterStream(companyWebhooksStreamId(companyId));
    const { skipped: _skipped, ...result } = outcome;
    return { ...result, endpoint: await this.get(companyId, endpointId) };
  }

  private checkUrl(url: string): string {
    return parseWebhookUrl(url, this.config.webhookAllowPrivateNetworks).toString();
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

function toResponse(endpoint: WebhookEndpointView): EndpointResponse {
  const { id, url, eventTypes, enabled, onProbation, createdAt, updatedAt } = endpoint;
  return { id, url, eventTypes, enabled, onProbation, createdAt, updatedAt };
}
