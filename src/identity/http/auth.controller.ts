import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../domain/principal';
import { CurrentPrincipal, Public, SessionAuth } from './auth';
import { LoginCommand } from '../application/login.handler';
import { SignupCommand } from '../application/signup.handler';
import { SessionIssuer } from '../application/session-issuer';
import { MagicLinks } from '../application/magic-links';
import { LoginRequestDto, MagicLinkQueryDto, MagicLinkRequestDto, SignupRequestDto } from './auth.request.dto';

@ApiTags('identity')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: SessionIssuer,
    private readonly magicLinks: MagicLinks,
  ) {}

  @Get('magic-link')
  @Public()
  @ApiOperation({
    summary: 'Sign in with a single-use magic link (accounts provisioned for roster emails), valid for MAGIC_LINK_TTL_SECONDS (7 days by default); returns a session token',
  })
  magicLink(@Query() query: MagicLinkQueryDto) {
    return this.magicLinks.redeem(query.token);
  }

  @Post('magic-link')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Ask for a new sign-in link for a passwordless account. Always 202: a link is sent only if the email has a passwordless account, and the answer does not say',
  })
  async requestMagicLink(@Body() body: MagicLinkRequestDto) {
    await this.magicLinks.sendOnRequest(body.email);
    return { requested: true };
  }

  @Post('signup')
  @Public()
  @ApiOperation({ summary: 'Create a company and its first user; returns a session token (201), valid for SESSION_TTL_SECONDS (12 h by default)' })
  signup(@Body() body: SignupRequestDto, @Req() request: FastifyRequest) {
    return this.commands.execute(new SignupCommand(body.companyName, body.email, body.password, request.id));
  }

  @Post('login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Exchange email and password for a session token, valid for SESSION_TTL_SECONDS (12 h by default); at most 10 attempts per account and 100 per client IP in 15 minutes (429 RATE_LIMITED with Retry-After)',
  })
  login(@Body() body: LoginRequestDto, @Req() request: FastifyRequest) {
    return this.commands.execute(new LoginCommand(body.email, body.password, request.ip));
  }

  @Post('logout')
  @SessionAuth()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Revoke the session used for this call' })
  async logout(@CurrentPrincipal() principal: Principal) {
    if (principal.kind === 'session') await this.sessions.revoke(principal.sessionId);
    return { loggedOut: true };
  }
}
