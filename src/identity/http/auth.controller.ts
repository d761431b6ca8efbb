import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { prefersHtml } from '../../platform/http/content-negotiation';
import { setPageHeaders } from '../../platform/http/security-headers';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { EmailAlreadyRegisteredError, InvalidCredentialsError, MagicLinkInvalidError, RateLimitedError } from '../domain/identity.errors';
import { LoggedOutDto, MagicLinkRequestedDto, SessionIssuedDto } from './identity.response.dto';
import { confirmSignInPage, linkNotValidPage, linkRequestedPage, signedInPage } from './magic-link-pages.html';
import type { Principal } from '../domain/principal';
import { CurrentPrincipal, Public, SessionAuth } from './auth';
import { LoginCommand } from '../application/login.handler';
import { SignupCommand } from '../application/signup.handler';
import { SessionIssuer } from '../application/session-issuer';
import { MagicLinks } from '../application/magic-links';
import { LoginRequestDto, MagicLinkQueryDto, MagicLinkRequestDto, MagicLinkSignInRequestDto, SignupRequestDto } from './auth.request.dto';

/** Email landings are pages a person sees: the platform's page headers, nobody may frame them. */
function sendPage(reply: FastifyReply, status: number, html: string): void {
  void setPageHeaders(reply.status(status).type('text/html; charset=utf-8'), 'none').send(html);
}

/**
 * The browser session after a magic-link sign-in: HttpOnly (no script reads it), SameSite=Strict (no
 * other site sends it), Secure when the service is served over https, as long as the session lives.
 */
function sessionCookie(sessionToken: string, config: AppConfig): string {
  const secure = config.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${sessionToken}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${config.sessionTtlSeconds}${secure}`;
}

/** The name of the browser session cookie (DESIGN.md section 12: the dashboard accepts it for session calls). */
export const SESSION_COOKIE = 'paysplit_session';

@ApiTags('identity')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: SessionIssuer,
    private readonly magicLinks: MagicLinks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiData(SessionIssuedDto)
  @ApiErrors(MagicLinkInvalidError)
  @Get('magic-link')
  @Public()
  @ApiOperation({
    summary:
      'Sign in with a single-use magic link (accounts provisioned for roster emails), valid for MAGIC_LINK_TTL_SECONDS (7 days by default); returns a session token. A browser (Accept prefers text/html) gets a page with a Sign in button instead, and the link is not used until it is pressed',
  })
  @ApiProduces('application/json', 'text/html')
  async magicLink(@Query() query: MagicLinkQueryDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (prefersHtml(request)) return sendPage(reply, 200, confirmSignInPage(query.token));
    void reply.send({ data: await this.magicLinks.redeem(query.token) });
  }

  @ApiData(SessionIssuedDto)
  @ApiErrors(MagicLinkInvalidError)
  @Post('magic-link/sign-in')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: "Sign in with a magic-link token in the body (JSON or the landing page's form); a browser gets a page and the session cookie, an API client the session token",
  })
  @ApiProduces('application/json', 'text/html')
  async signInWithMagicLink(@Body() body: MagicLinkSignInRequestDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!prefersHtml(request)) return void reply.status(200).send({ data: await this.magicLinks.redeem(body.token) });
    const signedIn = await this.magicLinks.redeem(body.token).catch((error: unknown) => {
      if (error instanceof MagicLinkInvalidError) return null;
      throw error;
    });
    if (!signedIn) return sendPage(reply, 401, linkNotValidPage());
    void reply.header('Set-Cookie', sessionCookie(signedIn.sessionToken, this.config));
    sendPage(reply, 200, signedInPage({ href: '/dashboard', label: 'Continue to your dashboard' }));
  }

  @ApiData(MagicLinkRequestedDto)
  @Post('magic-link')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Ask for a new sign-in link for a passwordless account. Always 202: a link is sent only if the email has a passwordless account, and the answer does not say. A browser form post gets a page',
  })
  @ApiProduces('application/json', 'text/html')
  async requestMagicLink(@Body() body: MagicLinkRequestDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.magicLinks.sendOnRequest(body.email);
    if (prefersHtml(request)) return sendPage(reply, 202, linkRequestedPage());
    void reply.status(202).send({ data: { requested: true } });
  }

  @ApiData(SessionIssuedDto)
  @ApiErrors(EmailAlreadyRegisteredError)
  @Post('signup')
  @Public()
  @ApiOperation({ summary: 'Create a company and its first user; returns a session token (201), valid for SESSION_TTL_SECONDS (12 h by default)' })
  signup(@Body() body: SignupRequestDto, @Req() request: FastifyRequest) {
    return this.commands.execute(new SignupCommand(body.companyName, body.email, body.password, request.id));
  }

  @ApiData(SessionIssuedDto)
  @ApiErrors(InvalidCredentialsError, RateLimitedError)
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

  @ApiData(LoggedOutDto)
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
