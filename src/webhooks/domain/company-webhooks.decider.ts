import { assertNever, Decider } from '../../platform/domain/decider';
import { MAX_ENDPOINTS_PER_COMPANY, WebhookEndpointLimitError, WebhookEndpointNotFoundError } from './webhooks.errors';
import { CompanyWebhooksEvent } from './webhooks.events';
import { CommandMetadata } from '../../platform/domain/command';

export interface EndpointState {
  endpointId: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  onProbation: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CompanyWebhooksState {
  /** A Map, not an object: an id like `constructor` or `__proto__` must not find anything inherited. */
  endpoints: ReadonlyMap<string, EndpointState>;
  sealedSecret: string | null;
}

type Base = { companyId: string };
export type CompanyWebhooksCommand =
  | { type: 'CreateEndpoint'; data: Base & { endpointId: string; url: string; eventTypes: string[] }; metadata: CommandMetadata }
  | { type: 'UpdateEndpoint'; data: Base & { endpointId: string; url?: string; eventTypes?: string[]; enabled?: boolean }; metadata: CommandMetadata }
  | { type: 'DeleteEndpoint'; data: Base & { endpointId: string }; metadata: CommandMetadata }
  | { type: 'GraduateEndpoint'; data: Base & { endpointId: string }; metadata: CommandMetadata }
  | { type: 'RotateSecret'; data: Base & { sealedSecret: string; onlyIfMissing: boolean }; metadata: CommandMetadata };

/**
 * One stream per company holds its endpoints and its signing secret: the limit of 10 endpoints and
 * every URL, subscription or secret change are decided and audited in one place.
 */
export const companyWebhooksDecider: Decider<CompanyWebhooksCommand, CompanyWebhooksEvent, CompanyWebhooksState> = {
  initialState: () => ({ endpoints: new Map(), sealedSecret: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateEndpoint':
        return createEndpoint(command.data, state, command.metadata);
      case 'UpdateEndpoint':
        return updateEndpoint(command.data, state, command.metadata);
      case 'DeleteEndpoint':
        return deleteEndpoint(command.data, state, command.metadata);
      case 'GraduateEndpoint':
        return graduateEndpoint(command.data, state, command.metadata);
      case 'RotateSecret':
        return rotateSecret(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'webhook.endpoint.created': {
        const { endpointId, url, eventTypes, createdAt } = event.data;
        return withEndpoint(state, { endpointId, url, eventTypes, enabled: true, onProbation: true, createdAt, updatedAt: createdAt });
      }
      case 'webhook.endpoint.updated': {
        const current = state.endpoints.get(event.data.endpointId)!;
        const { url = current.url, eventTypes = current.eventTypes, enabled = current.enabled, updatedAt } = event.data;
        return withEndpoint(state, { ...current, url, eventTypes, enabled, updatedAt });
      }
      case 'webhook.endpoint.graduated': {
        const current = state.endpoints.get(event.data.endpointId)!;
        return withEndpoint(state, { ...current, onProbation: false });
      }
      case 'webhook.endpoint.deleted': {
        const endpoints = new Map(state.endpoints);
        endpoints.delete(event.data.endpointId);
        return { ...state, endpoints };
      }
      case 'webhook.secret.rotated':
        return { ...state, sealedSecret: event.data.sealedSecret };
      default:
        return assertNever(event);
    }
  },
};

type Data<T extends CompanyWebhooksCommand['type']> = Extract<CompanyWebhooksCommand, { type: T }>['data'];

function createEndpoint(data: Data<'CreateEndpoint'>, state: CompanyWebhooksState, meta: CommandMetadata): CompanyWebhooksEvent[] {
  if (state.endpoints.has(data.endpointId)) return [];
  if (state.endpoints.size >= MAX_ENDPOINTS_PER_COMPANY) throw new WebhookEndpointLimitError();
  return [{ type: 'webhook.endpoint.created', data: { ...data, createdAt: meta.now } }];
}

function updateEndpoint(data: Data<'UpdateEndpoint'>, state: CompanyWebhooksState, meta: CommandMetadata): CompanyWebhooksEvent[] {
  const current = existing(state, data.endpointId);
  const changes = {
    ...(data.url !== undefined && data.url !== current.url ? { url: data.url } : {}),
    ...(data.eventTypes !== undefined && !sameSet(data.eventTypes, current.eventTypes) ? { eventTypes: data.eventTypes } : {}),
    ...(data.enabled !== undefined && data.enabled !== current.enabled ? { enabled: data.enabled } : {}),
  };
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'webhook.endpoint.updated', data: { endpointId: data.endpointId, companyId: data.companyId, ...changes, updatedAt: meta.now } }];
}

function deleteEndpoint(data: Data<'DeleteEndpoint'>, state: CompanyWebhooksState, meta: CommandMetadata): CompanyWebhooksEvent[] {
  existing(state, data.endpointId);
  return [{ type: 'webhook.endpoint.deleted', data: { endpointId: data.endpointId, companyId: data.companyId, deletedAt: meta.now } }];
}

function graduateEndpoint(data: Data<'GraduateEndpoint'>, state: CompanyWebhooksState, meta: CommandMetadata): CompanyWebhooksEvent[] {
  const endpoint = state.endpoints.get(data.endpointId);
  if (!endpoint || !endpoint.onProbation) return [];
  return [{ type: 'webhook.endpoint.graduated', data: { endpointId: data.endpointId, companyId: data.companyId, graduatedAt: meta.now } }];
}

function rotateSecret(data: Data<'RotateSecret'>, state: CompanyWebhooksState, meta: CommandMetadata): CompanyWebhooksEvent[] {
  if (data.onlyIfMissing && state.sealedSecret !== null) return [];
  return [{ type: 'webhook.secret.rotated', data: { companyId: data.companyId, sealedSecret: data.sealedSecret, rotatedAt: meta.now } }];
}

function existing(state: CompanyWebhooksState, endpointId: string): EndpointState {
  const endpoint = state.endpoints.get(endpointId);
  if (!endpoint) throw new WebhookEndpointNotFoundError();
  return endpoint;
}

function withEndpoint(state: CompanyWebhooksState, endpoint: EndpointState): CompanyWebhooksState {
  return { ...state, endpoints: new Map(state.endpoints).set(endpoint.endpointId, endpoint) };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}
