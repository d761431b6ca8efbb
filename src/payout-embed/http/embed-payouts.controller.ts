import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiRaw } from '../../platform/http/openapi';
import {
  PayoutEmbedClaimLockedError,
  PayoutEmbedCodeExpiredError,
  PayoutEmbedCodeInvalidError,
  PayoutEmbedCodeLimitError,
  PayoutEmbedNotAwaitingWalletError,
  PayoutEmbedNotClaimableError,
  PayoutEmbedSessionNotFoundError,
} from '../domain/payout-embed.errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { commandContext, Public } from '../../identity';
import { normalizeEmail } from '../../platform/domain/email';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { DomainError } from '../../platform/domain/domain-error';
import { ClaimPayoutMessage } from '../application/claim-payout.handler';
import { embedViewOf } from '../application/embed-view';
import { NamePayoutWalletMessage } from '../application/name-payout-wallet.handler';
import { SendClaimCodeMessage } from '../application/send-claim-code.handler';
import { PayoutEmbedQueries } from '../application/payout-embed.queries';
import { embedPage, notFoundPage } from './embed-page.html';
import { sendPage } from '../../platform/http/security-headers';
import { ClaimPayoutRequestDto, NameWalletRequestDto } from './payout-embed.request.dto';
import { EmbedResponseDto } from './payout-embed.response.dto';

class EmbedTokenMissingError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
  readonly kind = 'unauthenticated';
  constructor() {
    super('The embed token is missing: send it as Authorization: Bearer <token>');
  }
}

function tokenOf(authorization: string | undefined): string {
  const match = /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(authorization ?? '');
  if (!match) throw new EmbedTokenMissingError();
  return match[1]!;
}

/**
 * The embed page's own API. The credential is the session's embed token (from the page URL's
 * fragment), sent as a bearer; no cookie, so no CSRF. A wrong token or id is 404.
 */
@ApiTags('payout-embed page')
@ApiBearerAuth('embedToken')
@ApiErrors(EmbedTokenMissingError, PayoutEmbedSessionNotFoundError)
@Public()
@Controller('api/embed/payouts')
export class EmbedPayoutsApiController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: PayoutEmbedQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id')
  @ApiOperation({ summary: 'What the embed page shows (embed token as bearer)' })
  @ApiOkResponse({ type: EmbedResponseDto })
  async get(@Param('id') id: string, @Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('Cache-Control', 'no-store');
    const state = await this.queries.stateForToken(id, tokenOf(authorization));
    return embedViewOf(state, this.clock.now().toISOString(), await this.queries.senderName(state.session.companyId));
  }

  @ApiErrors(PayoutEmbedNotClaimableError, PayoutEmbedClaimLockedError, PayoutEmbedCodeLimitError)
  @Post(':id/code')
  @HttpCode(200)
  @ApiOperation({ summary: 'Email a 6-digit code to the recipient (10 min; at most one a minute, 5 per session)' })
  @ApiOkResponse({ type: EmbedResponseDto })
  sendCode(@Param('id') id: string, @Headers('authorization') authorization: string | undefined, @Req() request: FastifyRequest) {
    return this.commands.execute(new SendClaimCodeMessage(id, tokenOf(authorization), commandContext(request, null)));
  }

  @ApiErrors(PayoutEmbedNotClaimableError, PayoutEmbedClaimLockedError, PayoutEmbedCodeExpiredError, PayoutEmbedCodeInvalidError)
  @Post(':id/claim')
  @HttpCode(200)
  @ApiOperation({ summary: 'Claim with the code: 422 PAYOUT_EMBED_CODE_INVALID when wrong; the 5th wrong code locks claims for 15 minutes (409 PAYOUT_EMBED_CLAIM_LOCKED)' })
  @ApiOkResponse({ type: EmbedResponseDto })
  claim(@Param('id') id: string, @Body() body: ClaimPayoutRequestDto, @Headers('authorization') authorization: string | undefined, @Req() request: FastifyRequest) {
    return this.commands.execute(new ClaimPayoutMessage(id, tokenOf(authorization), commandContext(request, null), body.code));
  }

  @ApiErrors(PayoutEmbedNotAwaitingWalletError)
  @Post(':id/wallet')
  @HttpCode(200)
  @ApiOperation({ summary: 'Name the wallet the money goes to; the payout starts (poll GET until completed or failed)' })
  @ApiOkResponse({ type: EmbedResponseDto })
  wallet(@Param('id') id: string, @Body() body: NameWalletRequestDto, @Headers('authorization') authorization: string | undefined, @Req() request: FastifyRequest) {
    return this.commands.execute(new NamePayoutWalletMessage(id, tokenOf(authorization), commandContext(request, null), normalizeEmail(body.walletEmail)));
  }
}

/**
 * The page itself. The token never reaches the server here (it is in the fragment); the id alone
 * gives the page its frame-ancestors (the session's allowed origins, or 'none'). The page shows
 * nothing about the session until its script has proved the token on the API.
 */
@ApiTags('payout-embed page')
@Public()
@Controller('embed/payouts')
export class EmbedPayoutsPageController {
  constructor(private readonly queries: PayoutEmbedQueries) {}

  @ApiRaw('text/html', 'The recipient page')
  @ApiResponse({ status: 404, description: 'An HTML page that says the payout link is not valid', content: { 'text/html': { schema: { type: 'string' } } } })
  @Get(':id')
  @ApiOperation({ summary: 'The recipient page (HTML); open or frame embedUrl, which carries the token in its #t= fragment' })
  async page(@Param('id') id: string, @Res() reply: FastifyReply) {
    const state = /^pes_[0-9a-z]{26}$/.test(id) ? await this.queries.stateOf(id) : null;
    const origins = state?.session?.allowedOrigins ?? [];
    // Framable only by the session's allowed origins ('none', and X-Frame-Options DENY, when there are none).
    if (!state?.session) return sendPage(reply, 404, notFoundPage(), origins);
    sendPage(reply, 200, embedPage(id), origins);
  }
}
