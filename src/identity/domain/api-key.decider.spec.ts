import { given } from '../../../test/support/given-when-then';
import { apiKeyDecider, ApiKeyCommand } from './api-key.decider';
import { ApiKeyEvent } from './identity.events';

const now = '2026-01-01T00:00:00.000Z';
const issue: ApiKeyCommand = {
  type: 'IssueApiKey',
  data: { keyId: 'key_1', companyId: 'co_1', name: 'ci', scopes: ['split:write'], keyHash: 'h', lastFour: 'abcd', prefix: 'sk_abcdefgh', issuedBy: 'usr_1' },
  metadata: { now, actor: 'system' },
};
const issued: ApiKeyEvent = {
  type: 'api_key.issued',
  data: { keyId: 'key_1', companyId: 'co_1', name: 'ci', scopes: ['split:write'], keyHash: 'h', lastFour: 'abcd', prefix: 'sk_abcdefgh', issuedBy: 'usr_1', issuedAt: now },
};
const revoked: ApiKeyEvent = { type: 'api_key.revoked', data: { keyId: 'key_1', companyId: 'co_1', revokedAt: now } };

describe('api key decider', () => {
  it('issues a key', () => given(apiKeyDecider).when(issue).then([issued]));
  it('issues nothing twice for the same key id', () => given(apiKeyDecider, issued).when(issue).thenNothing());
  it('revokes an active key of the same company', () =>
    given(apiKeyDecider, issued)
      .when({ type: 'RevokeApiKey', data: { keyId: 'key_1', companyId: 'co_1' }, metadata: { now, actor: 'system' } })
      .then([revoked]));
  it('treats a second revocation as done', () =>
    given(apiKeyDecider, issued, revoked)
      .when({ type: 'RevokeApiKey', data: { keyId: 'key_1', companyId: 'co_1' }, metadata: { now, actor: 'system' } })
      .thenNothing());
  it('hides another company key as not found', () =>
    given(apiKeyDecider, issued)
      .when({ type: 'RevokeApiKey', data: { keyId: 'key_1', companyId: 'co_2' }, metadata: { now, actor: 'system' } })
      .thenFails('API_KEY_NOT_FOUND'));
  it('does not find a key that was never issued', () =>
    given(apiKeyDecider)
      .when({ type: 'RevokeApiKey', data: { keyId: 'key_9', companyId: 'co_1' }, metadata: { now, actor: 'system' } })
      .thenFails('API_KEY_NOT_FOUND'));
});
