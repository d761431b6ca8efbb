import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { ApiKeyNotFoundError } from '../domain/identity.errors';
import { ApiKeyDto, ApiKeyIssuedDto, ApiKeyRevokedDto } from './identity.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../domain/principal';
import { CurrentPrincipal, Roles, SessionAuth } from './auth';
import { DEVELOPERS } from '../domain/role';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { ApiKeyUsage } from '../application/api-key-usage';
import { IssueApiKeyMessage } from '../application/issue-api-key.handler';
import { RevokeApiKeyMessage } from '../application/revoke-api-key.handler';
import { ApiKeyDoc } from '../projections/identity-read-model.projection';
import { IssueApiKeyRequestDto } from './issue-api-key.request.dto';

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

@ApiTags('identity')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/api-keys')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    private readonly usage: ApiKeyUsage,
  ) {}

  @ApiData(ApiKeyIssuedDto)
  @Post()
  @Roles(...DEVELOPERS)
  @ApiOperation({ summary: 'Issue an API key with scopes; the key is shown only in this answer' })
  issue(@Body() body: IssueApiKeyRequestDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    return this.commands.execute(new IssueApiKeyMessage(principal.companyId, principal.userId, body.name, body.scopes, request.id));
  }

  @ApiData(ApiKeyDto, { isArray: true })
  @Get()
  @ApiOperation({ summary: "List the company's API keys (never the secrets), with prefix, last four characters and when each last authenticated a call (to the minute)" })
  async list(@CurrentPrincipal() principal: SessionPrincipal) {
    const keys = await this.store.find<ApiKeyDoc>('api_keys', {
      filter: { companyId: principal.companyId },
      sort: [{ field: 'createdAt', direction: 'desc' }],
    });
    return Promise.all(
      keys.map(async ({ id, name, scopes, lastFour, prefix, createdAt, revokedAt }) => ({
        id,
        name,
        scopes,
        prefix: prefix ?? null,
        lastFour,
        createdAt,
        lastUsedAt: await this.usage.lastUsedAt(id),
        revokedAt,
      })),
    );
  }

  @ApiData(ApiKeyRevokedDto)
  @ApiErrors(ApiKeyNotFoundError)
  @Delete(':id')
  @Roles(...DEVELOPERS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key; it stops working at once' })
  async revoke(@Param('id') id: string, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    await this.commands.execute(new RevokeApiKeyMessage(principal.companyId, principal.userId, id, request.id));
    return { id, revoked: true };
  }
}
