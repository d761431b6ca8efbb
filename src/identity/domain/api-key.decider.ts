import { assertNever, Decider } from '../../platform/domain/decider';
import type { Scope } from './principal';
import { ApiKeyNotFoundError } from './identity.errors';
import { ApiKeyEvent } from './identity.events';
import { CommandMetadata } from '../../platform/domain/command';

export type ApiKeyCommand =
  | {
      type: 'IssueApiKey';
      data: { keyId: string; companyId: string; name: string; scopes: Scope[]; keyHash: string; lastFour: string; prefix: string; issuedBy: string };
      metadata: CommandMetadata;
    }
  | { type: 'RevokeApiKey'; data: { keyId: string; companyId: string }; metadata: CommandMetadata };

export type ApiKeyState = { status: 'none' } | { status: 'active' | 'revoked'; companyId: string };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiKey':
        return issue(command.data, state, command.metadata);
      case 'RevokeApiKey':
        return revoke(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'api_key.issued':
        return { status: 'active', companyId: event.data.companyId };
      case 'api_key.revoked':
        return { status: 'revoked', companyId: event.data.companyId };
      default:
        return assertNever(event);
    }
  },
};

function issue(data: Extract<ApiKeyCommand, { type: 'IssueApiKey' }>['data'], state: ApiKeyState, meta: CommandMetadata): ApiKeyEvent[] {
  if (state.status !== 'none') return [];
  return [{ type: 'api_key.issued', data: { ...data, issuedAt: meta.now } }];
}

/** Revoking twice changes nothing; another company's key does not exist for the caller. */
function revoke(data: Extract<ApiKeyCommand, { type: 'RevokeApiKey' }>['data'], state: ApiKeyState, meta: CommandMetadata): ApiKeyEvent[] {
  if (state.status === 'none' || state.companyId !== data.companyId) throw new ApiKeyNotFoundError();
  if (state.status === 'revoked') return [];
  return [{ type: 'api_key.revoked', data: { keyId: data.keyId, companyId: data.companyId, revokedAt: meta.now } }];
}
