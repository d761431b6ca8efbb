import { given } from '../../../test/support/given-when-then';
import { CompanyWebhooksCommand, companyWebhooksDecider } from './company-webhooks.decider';
import { CompanyWebhooksEvent } from './webhooks.events';
import { fold } from '../../platform/domain/decider';

const companyId = 'co_1';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const URL_A = 'https://merchant.example/hooks/a';
const URL_B = 'https://merchant.example/hooks/b';

// ---- events -------------------------------------------------------------------------------------

const created = (endpointId: string, url = URL_A, eventTypes = ['split.leg_a.approved'], at = T0): CompanyWebhooksEvent => ({
  type: 'webhook.endpoint.created',
  data: { endpointId, companyId, url, eventTypes, createdAt: at },
});
const updated = (endpointId: string, changes: { url?: string; eventTypes?: string[]; enabled?: boolean }, at = T1): CompanyWebhooksEvent => ({
  type: 'webhook.endpoint.updated',
  data: { endpointId, companyId, ...changes, updatedAt: at },
});
const deleted = (endpointId: string, at = T1): CompanyWebhooksEvent => ({ type: 'webhook.endpoint.deleted', data: { endpointId, companyId, deletedAt: at } });
const graduated = (endpointId: string, at = T1): CompanyWebhooksEvent => ({ type: 'webhook.endpoint.graduated', data: { endpointId, companyId, graduatedAt: at } });
const secretRotated = (sealedSecret: string, at = T0): CompanyWebhooksEvent => ({ type: 'webhook.secret.rotated', data: { companyId, sealedSecret, rotatedAt: at } });

// ---- commands -----------------------------------------------------------------------------------

const create = (endpointId: string, url = URL_A, eventTypes = ['split.leg_a.approved'], now = T0): CompanyWebhooksCommand => ({
  type: 'CreateEndpoint',
  data: { companyId, endpointId, url, eventTypes },
  metadata: { now, actor: 'system' },
});
const update = (endpointId: string, changes: { url?: string; eventTypes?: string[]; enabled?: boolean }, now = T1): CompanyWebhooksCommand => ({
  type: 'UpdateEndpoint',
  data: { companyId, endpointId, ...changes },
  metadata: { now, actor: 'system' },
});
const remove = (endpointId: string, now = T1): CompanyWebhooksCommand => ({ type: 'DeleteEndpoint', data: { companyId, endpointId }, metadata: { now, actor: 'system' } });
const graduate = (endpointId: string, now = T1): CompanyWebhooksCommand => ({ type: 'GraduateEndpoint', data: { companyId, endpointId }, metadata: { now, actor: 'system' } });
const rotate = (sealedSecret: string, onlyIfMissing: boolean, now = T0): CompanyWebhooksCommand => ({
  type: 'RotateSecret',
  data: { companyId, sealedSecret, onlyIfMissing },
  metadata: { now, actor: 'system' },
});

const tenEndpoints = Array.from({ length: 10 }, (_, i) => created(`we_${i + 1}`, `https://merchant.example/hooks/${i + 1}`));

describe('company webhooks decider', () => {
  describe('CreateEndpoint', () => {
    it('creates an endpoint', () => {
      given(companyWebhooksDecider)
        .when(create('we_1'))
        .then([created('we_1')]);
    });

    it('starts a new endpoint enabled and on probation', () => {
      const state = fold(companyWebhooksDecider, [created('we_1')]);
      expect(state.endpoints.get('we_1')).toEqual({
        endpointId: 'we_1',
        url: URL_A,
        eventTypes: ['split.leg_a.approved'],
        enabled: true,
        onProbation: true,
        createdAt: T0,
        updatedAt: T0,
      });
    });

    it('is idempotent on the endpoint id', () => {
      given(companyWebhooksDecider, created('we_1')).when(create('we_1')).thenNothing();
    });

    it('accepts the 10th endpoint', () => {
      given(companyWebhooksDecider, ...tenEndpoints.slice(0, 9))
        .when(create('we_10', 'https://merchant.example/hooks/10'))
        .then([created('we_10', 'https://merchant.example/hooks/10')]);
    });

    it('refuses the 11th endpoint with WEBHOOK_ENDPOINT_LIMIT', () => {
      given(companyWebhooksDecider, ...tenEndpoints)
        .when(create('we_11'))
        .thenFails('WEBHOOK_ENDPOINT_LIMIT');
    });

    it('counts disabled endpoints towards the limit', () => {
      given(companyWebhooksDecider, ...tenEndpoints, updated('we_3', { enabled: false }))
        .when(create('we_11'))
        .thenFails('WEBHOOK_ENDPOINT_LIMIT');
    });

    it('frees a slot when an endpoint is deleted', () => {
      given(companyWebhooksDecider, ...tenEndpoints, deleted('we_4'))
        .when(create('we_11', URL_B))
        .then([created('we_11', URL_B)]);
    });
  });

  describe('UpdateEndpoint', () => {
    it('records only the fields that change', () => {
      given(companyWebhooksDecider, created('we_1'))
        .when(update('we_1', { url: URL_A, eventTypes: ['split.leg_a.approved'], enabled: false }))
        .then([updated('we_1', { enabled: false })]);
    });

    it('records a new url and a new event type set', () => {
      given(companyWebhooksDecider, created('we_1'))
        .when(update('we_1', { url: URL_B, eventTypes: ['split.leg_a.rejected', 'split.leg_a.approved'] }))
        .then([updated('we_1', { url: URL_B, eventTypes: ['split.leg_a.rejected', 'split.leg_a.approved'] })]);
    });

    it('is a no-op when nothing changes (same url, same set of event types in any order, same enabled state)', () => {
      given(companyWebhooksDecider, created('we_1', URL_A, ['split.leg_a.approved', 'split.leg_a.rejected']))
        .when(update('we_1', { url: URL_A, eventTypes: ['split.leg_a.rejected', 'split.leg_a.approved'], enabled: true }))
        .thenNothing();
    });

    it('is a no-op for an empty change', () => {
      given(companyWebhooksDecider, created('we_1')).when(update('we_1', {})).thenNothing();
    });

    it('re-enables a disabled endpoint', () => {
      given(companyWebhooksDecider, created('we_1'), updated('we_1', { enabled: false }))
        .when(update('we_1', { enabled: true }))
        .then([updated('we_1', { enabled: true })]);
    });

    it('keeps the other fields when folding a partial update', () => {
      const state = fold(companyWebhooksDecider, [created('we_1'), updated('we_1', { enabled: false }, T1)]);
      expect(state.endpoints.get('we_1')).toEqual({
        endpointId: 'we_1',
        url: URL_A,
        eventTypes: ['split.leg_a.approved'],
        enabled: false,
        onProbation: true,
        createdAt: T0,
        updatedAt: T1,
      });
    });

    it('refuses an unknown endpoint with WEBHOOK_ENDPOINT_NOT_FOUND', () => {
      given(companyWebhooksDecider, created('we_1'))
        .when(update('we_unknown', { enabled: false }))
        .thenFails('WEBHOOK_ENDPOINT_NOT_FOUND');
    });

    it('refuses a deleted endpoint with WEBHOOK_ENDPOINT_NOT_FOUND', () => {
      given(companyWebhooksDecider, created('we_1'), deleted('we_1'))
        .when(update('we_1', { enabled: false }))
        .thenFails('WEBHOOK_ENDPOINT_NOT_FOUND');
    });
  });

  describe('DeleteEndpoint', () => {
    it('deletes an endpoint', () => {
      given(companyWebhooksDecider, created('we_1'))
        .when(remove('we_1'))
        .then([deleted('we_1')]);
    });

    it('refuses an unknown endpoint with WEBHOOK_ENDPOINT_NOT_FOUND (a 404)', () => {
      given(companyWebhooksDecider)
        .when(remove('we_unknown'))
        .thenFails('WEBHOOK_ENDPOINT_NOT_FOUND', (error) => expect(error).toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND', kind: 'not_found' }));
    });

    it('refuses to delete the same endpoint twice', () => {
      given(companyWebhooksDecider, created('we_1'), deleted('we_1')).when(remove('we_1')).thenFails('WEBHOOK_ENDPOINT_NOT_FOUND');
    });

    it('removes the endpoint from the state', () => {
      expect(fold(companyWebhooksDecider, [created('we_1'), created('we_2', URL_B), deleted('we_1')]).endpoints).toEqual(
        new Map([['we_2', expect.objectContaining({ endpointId: 'we_2' })]]),
      );
    });
  });

  describe('GraduateEndpoint', () => {
    it('ends probation once', () => {
      given(companyWebhooksDecider, created('we_1'))
        .when(graduate('we_1'))
        .then([graduated('we_1')]);
    });

    it('emits nothing the second time', () => {
      given(companyWebhooksDecider, created('we_1'), graduated('we_1')).when(graduate('we_1')).thenNothing();
    });

    it('emits nothing for an unknown or deleted endpoint (a late success must not fail)', () => {
      given(companyWebhooksDecider).when(graduate('we_unknown')).thenNothing();
      given(companyWebhooksDecider, created('we_1'), deleted('we_1')).when(graduate('we_1')).thenNothing();
    });

    it('folds to onProbation false and leaves the rest alone', () => {
      const state = fold(companyWebhooksDecider, [created('we_1'), updated('we_1', { enabled: false }), graduated('we_1')]);
      expect(state.endpoints.get('we_1')).toMatchObject({ onProbation: false, enabled: false, url: URL_A });
    });
  });

  describe('RotateSecret', () => {
    it('rotation always emits, with or without a secret', () => {
      given(companyWebhooksDecider)
        .when(rotate('sealed-1', false))
        .then([secretRotated('sealed-1')]);
      given(companyWebhooksDecider, secretRotated('sealed-1'))
        .when(rotate('sealed-2', false, T1))
        .then([secretRotated('sealed-2', T1)]);
    });

    it('ensure-secret (onlyIfMissing) emits when there is no secret', () => {
      given(companyWebhooksDecider)
        .when(rotate('sealed-1', true))
        .then([secretRotated('sealed-1')]);
    });

    it('ensure-secret (onlyIfMissing) emits nothing once a secret exists', () => {
      given(companyWebhooksDecider, secretRotated('sealed-1')).when(rotate('sealed-2', true)).thenNothing();
    });

    it('the latest rotation is the current secret', () => {
      expect(fold(companyWebhooksDecider, [secretRotated('sealed-1'), secretRotated('sealed-2', T1)]).sealedSecret).toBe('sealed-2');
    });

    it('the secret and the endpoints do not affect each other', () => {
      const state = fold(companyWebhooksDecider, [created('we_1'), secretRotated('sealed-1'), deleted('we_1')]);
      expect(state).toEqual({ endpoints: new Map(), sealedSecret: 'sealed-1' });
    });
  });

  describe('ids named like Object.prototype members (issue 15)', () => {
    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'undefined', 'valueOf'])('%s is an unknown endpoint: update and delete fail, nothing is decided', (id) => {
      given(companyWebhooksDecider, created('we_1'))
        .when(update(id, { enabled: false }))
        .thenFails('WEBHOOK_ENDPOINT_NOT_FOUND');
      given(companyWebhooksDecider, created('we_1')).when(remove(id)).thenFails('WEBHOOK_ENDPOINT_NOT_FOUND');
      given(companyWebhooksDecider, created('we_1')).when(graduate(id)).thenNothing();
    });

    it('an endpoint may be called constructor without touching the others', () => {
      given(companyWebhooksDecider, ...tenEndpoints.slice(0, 9), created('constructor'))
        .when(create('we_11'))
        .thenFails('WEBHOOK_ENDPOINT_LIMIT');
    });
  });
});
