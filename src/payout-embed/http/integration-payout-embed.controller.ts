import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import {
  IdempotencyKeyReusedError,
  PayoutEmbedNotCancellableError,
  PayoutEmbedNotConfirmableError,
  PayoutEmbedReservationAbandonedError,
  PayoutEmbedSessionNotFoundError,
  PayoutInsufficientBalanceError,
  SelfApprovalError,
} from '../domain/payout-embed.errors';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyOrSessionAuth, commandContext, CurrentPrincipal, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { normalizeEmail } from '../../platform/domain/email';
import { Page } from '../../platform/http/envelope';
import { pageOf } from '../../platform/http/pagination';
import { CancelPayoutEmbedSessionMessage } from '../application/cancel-payout-embed-session.handler';
import { CreatePayoutEmbedSessionMessage } from '../application/create-payout-embed-session.handler';
import { ConfirmPayoutEmbedSessionMessage } from '../application/confirm-payout-embed-session.handler';
import { PayoutEmbedQueries } from '../application/payout-embed.queries';
import { CreatePayoutEmbedSessionRequestDto, EXPIRY_SECONDS, ListPayoutEmbedSessionsQueryDto, refuseLoopbackOutsideSandbox } from './payout-embed.request.dto';
import { SessionListResponseDto, SessionResponseDto, SessionViewDto } from './payout-embed.response.dto';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import { sendListOrCsv } from '../../platform/http/list-export';
import { SESSION_LIST_CSV } from './session-list.csv';

@ApiTags('payout-embed')
@ApiBearerAuth()
@ApiKeyOrSessionAuth('payout:write')
@Controller('api/commerce/integration/payout-embed/sessions')
export class IntegrationPayoutEmbedController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: PayoutEmbedQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiData(SessionViewDto, { replayed: true })
  @ApiErrors(PayoutInsufficientBalanceError, IdempotencyKeyReusedError, PayoutEmbedReservationAbandonedError)
  @IdempotentRoute()
  @Post()
  @Roles(...FINANCE)
  @ApiOperation({
    summary: 'Create a session and reserve its amount (201); 422 PAYOUT_INSUFFICIENT_BALANCE when short; the same idempotencyKey returns it again (200, Idempotent-Replayed: true)',
  })
  async create(
    @Body() body: CreatePayoutEmbedSessionRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(async () => {
      if (!this.config.sandbox) refuseLoopbackOutsideSandbox(body);
      const { session, replayed } = await this.commands.execute(
        new CreatePayoutEmbedSessionMessage(
          principal.companyId,
          {
            recipientEmail: normalizeEmail(body.recipientEmail),
            recipientName: body.recipientName ?? null,
            amountCents: body.amountCents,
            currency: body.currency,
            description: body.description ?? null,
            idempotencyKey: body.idempotencyKey ?? null,
            expiresInSeconds: body.expiresInSeconds ?? EXPIRY_SECONDS.default,
            allowedOrigins: [...new Set((body.allowedOrigins ?? []).map((origin) => new URL(origin).origin))],
            returnUrl: body.returnUrl ?? null,
          },
          commandContext(request, principal),
        ),
      );
      if (replayed) void reply.status(200).header('Idempotent-Replayed', 'true');
      return session;
    });
  }

  @Get()
  @ApiOperation({ summary: "The company's sessions, newest first, optionally of one status; Accept: text/csv exports every one (without the embed URL)" })
  @ApiOkResponse({ type: SessionListResponseDto })
  @ApiProduces('application/json', 'text/csv')
  async list(@Query() query: ListPayoutEmbedSessionsQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const list = async (page: number, limit: number) => {
      const { items, total } = await this.queries.list(principal.companyId, query.status ?? null, (page - 1) * limit, limit);
      return Page.of(items, page, limit, total);
    };
    await sendListOrCsv(request, reply, { filename: 'payout-embed-sessions.csv', columns: SESSION_LIST_CSV }, list, pageOf(query));
  }

  @ApiErrors(PayoutEmbedSessionNotFoundError)
  @Get(':id')
  @ApiOperation({ summary: 'One session of the company (another company’s is 404)' })
  @ApiOkResponse({ type: SessionResponseDto })
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.queries.get(id, principal.companyId);
  }

  @ApiErrors(PayoutEmbedSessionNotFoundError, PayoutEmbedNotCancellableError)
  @IdempotentRoute()
  @Post(':id/cancel')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel while created or claimed and before the payout starts (else 409); the reservation returns to the balance' })
  @ApiOkResponse({ type: SessionResponseDto })
  cancel(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @IdempotencyKey() once: OnceByKey) {
    return once(() => this.commands.execute(new CancelPayoutEmbedSessionMessage(principal.companyId, id, commandContext(request, principal))));
  }

  @ApiErrors(PayoutEmbedSessionNotFoundError, PayoutEmbedNotConfirmableError, SelfApprovalError)
  @Post(':id/confirm')
  @SessionAuth()
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Issue 30: a second member confirms a session above the company's two-person threshold (its default approval policy asking for two); the one who started it is refused (403 SELF_APPROVAL). A session that needs no confirmation, or has it, is returned unchanged",
  })
  @ApiOkResponse({ type: SessionResponseDto })
  confirm(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new ConfirmPayoutEmbedSessionMessage(principal.companyId, id, commandContext(request, principal)));
  }
}
