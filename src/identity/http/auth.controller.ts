import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { prefersHtml } from '../../platform/http/content-negotiation';
import { sendPage } from '../../platform/http/security-headers';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import {
  EmailAlreadyRegisteredError,
  InvalidCredentialsError,
  MagicLinkInvalidError,
  PasswordResetInvalidError,
  RateLimitedError,
  UnauthenticatedError,
} from '../domain/identity.errors';
import { CompanySwitchedDto, CurrentAccountDto, LoggedOutDto, MagicLinkRequestedDto, PasswordResetDoneDto, SessionIssuedDto } from './identity.response.dto';
import { NotAMemberError } from '../domain/members.errors';
import { ANY_ROLE } from '../domain/role';
import { chooseCompany } from '../application/company-choice';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { currentAccount } from '../application/current-account.query';
import { SignedIn } from '../application/signup.handler';
import { clearSessionCookie, originAllowed, setSessionCookie } from './session-cookie';
import { confirmSignInPage, linkNotValidPage, linkRequestedPage, signedInPage } from './magic-link-pages.html';
import type { Principal } from '../domain/principal';
import { CurrentPrincipal, Public, Roles, SessionAuth } from './auth';
import { LoginMessage } from '../application/login.handler';
import { SignupMessage } from '../application/signup.handler';
import { SessionIssuer } from '../application/session-issuer';
import { MagicLinks } from '../application/magic-links';
import { MagicLinkSignIn } from '../application/magic-link-sign-in';
import { LoginRequestDto, MagicLinkQueryDto, MagicLinkRequestDto, MagicLinkSignInRequestDto, SignupRequestDto, SwitchCompanyRequestDto } from './auth.request.dto';
import { PasswordResetConfirmDto, PasswordResetRequestDto } from './auth.request.dto';
import { PasswordResets } from '../application/password-resets';
import { ResetPasswordMessage } from '../application/reset-password.handler';

@ApiTags('identity')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: SessionIssuer,
    private readonly magicLinks: MagicLinks,
    private readonly magicLinkSignIn: MagicLinkSignIn,
    private readonly passwordResets: PasswordResets,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Never signs in, whatever the client sends: mail scanners and link previewers fetch every link in a
   * message (with `Accept: *\/*` or none), and a GET that redeemed would spend the single-use link before
   * its owner. Every client gets the page whose button posts the token to magic-link/sign-in (issue 24).
   */
  @ApiOkResponse({ description: 'The sign-in page (HTML) with a Sign in button; the link is not used', content: { 'text/html': { schema: { type: 'string' } } } })
  @Get('magic-link')
  @Public()
  @ApiOperation({
    summary:
      'The landing page of an emailed sign-in link (valid for MAGIC_LINK_TTL_SECONDS, 7 days by default): always an HTML page with a Sign in button, for every client and Accept header; opening it never uses the link. To sign in, POST the token to /api/auth/magic-link/sign-in',
  })
  @ApiProduces('text/html')
  magicLink(@Query() query: MagicLinkQueryDto, @Res() reply: FastifyReply) {
    sendPage(reply, 200, confirmSignInPage(query.token), 'none');
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
    if (!prefersHtml(request)) return void reply.status(200).send({ data: this.withCookie(request, reply, await this.magicLinkSignIn.signIn(body.token, request.id)) });
    const signedIn = await this.magicLinkSignIn.signIn(body.token, request.id).catch((error: unknown) => {
      if (error instanceof MagicLinkInvalidError) return null;
      throw error;
    });
    if (!signedIn) return sendPage(reply, 401, linkNotValidPage(), 'none');
    this.withCookie(request, reply, signedIn);
    sendPage(reply, 200, signedInPage({ href: '/dashboard', label: 'Continue to your dashboard' }), 'none');
  }

  @ApiData(MagicLinkRequestedDto)
  @Post('magic-link')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Ask for a new sign-in link for a passwordless account, or a new confirmation link for a password sign-up not yet confirmed. Always 202: a link is sent only to such an account, and the answer does not say. A browser form post gets a page',
  })
  @ApiProduces('application/json', 'text/html')
  async requestMagicLink(@Body() body: MagicLinkRequestDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.magicLinks.sendOnRequest(body.email);
    if (prefersHtml(request)) return sendPage(reply, 202, linkRequestedPage(), 'none');
    void reply.status(202).send({ data: { requested: true } });
  }

  // Issue 29 item 9: forgot password.
  @ApiData(MagicLinkRequestedDto)
  @Post('password/forgot')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Forgot password: email a reset link (single use, valid for PASSWORD_RESET_TTL_SECONDS, 1 h by default) to an account with a password; a passwordless account gets a sign-in link instead. Always 202 with the same body: the answer never says whether the email has an account. At most 3 links per account an hour',
  })
  async forgotPassword(@Body() body: PasswordResetRequestDto) {
    await this.passwordResets.sendOnRequest(body.email);
    return { requested: true };
  }

  @ApiData(PasswordResetDoneDto)
  @ApiErrors(PasswordResetInvalidError)
  @Post('password/reset')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Set a new password with the emailed reset link's token (the signup's rules: 8 to 200 characters). The link is used up; every session of the account ends (sign in again with the new password). 401 PASSWORD_RESET_INVALID for a link that is unknown, expired, already used or older than a later reset",
  })
  async resetPassword(@Body() body: PasswordResetConfirmDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const done = await this.commands.execute(new ResetPasswordMessage(body.token, body.password, request.id));
    // This browser's session ended with the others: its cookie goes too.
    clearSessionCookie(reply, this.config);
    return done;
  }

  @ApiData(SessionIssuedDto)
  @ApiErrors(EmailAlreadyRegisteredError)
  @Post('signup')
  @Public()
  @ApiOperation({ summary: 'Create a company and its first user; returns a session token (201), valid for SESSION_TTL_SECONDS (12 h by default)' })
  async signup(@Body() body: SignupRequestDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.withCookie(request, reply, await this.commands.execute(new SignupMessage(body.companyName, body.email, body.password, request.id)));
  }

  @ApiData(SessionIssuedDto)
  @ApiErrors(InvalidCredentialsError, RateLimitedError, NotAMemberError)
  @Post('login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Exchange email and password for a session token, valid for SESSION_TTL_SECONDS (12 h by default); at most 10 failed attempts per account and 100 per client address (TRUST_PROXY) in 15 minutes; a right password does not count (429 RATE_LIMITED with Retry-After)',
  })
  async login(@Body() body: LoginRequestDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.withCookie(request, reply, await this.commands.execute(new LoginMessage(body.email, body.password, request.ip, body.companyId ?? null)));
  }

  @ApiData(LoggedOutDto)
  @Post('logout')
  @SessionAuth()
  @Roles(...ANY_ROLE)
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Revoke the session used for this call (Bearer or the dashboard cookie) and clear the session cookie' })
  async logout(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: FastifyReply) {
    if (principal.kind === 'session') await this.sessions.revoke(principal.sessionId);
    clearSessionCookie(reply, this.config);
    return { loggedOut: true };
  }

  @ApiData(CompanySwitchedDto)
  @ApiErrors(NotAMemberError)
  @Post('session/company')
  @SessionAuth()
  @Roles(...ANY_ROLE)
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Switch the session to another company its person belongs to (issue 30); the same token and cookie then act for that company with its role there' })
  async switchCompany(@Body() body: SwitchCompanyRequestDto, @CurrentPrincipal() principal: Principal) {
    if (principal.kind !== 'session') throw new UnauthenticatedError('This call takes a logged-in session');
    const choice = await chooseCompany(this.documents, principal.userId, body.companyId, principal.companyId);
    await this.sessions.switchCompany(principal.sessionId, choice.companyId);
    return { ...choice, userId: principal.userId };
  }

  @ApiData(CurrentAccountDto)
  @Get('me')
  @SessionAuth()
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Who the session belongs to: user, company and kind (company, or contractor for an account made for a roster email)' })
  async me(@CurrentPrincipal() principal: Principal) {
    if (principal.kind !== 'session') throw new UnauthenticatedError('This call takes a logged-in session');
    const account = await currentAccount(this.documents, principal.userId, principal.companyId);
    if (!account) throw new UnauthenticatedError('The account of this session is not known');
    return account;
  }

  /**
   * The browser's copy of the session goes in an HttpOnly cookie; the JSON answer stays as it was. Not
   * for a request another site made (login CSRF: it would sign the victim's browser into the attacker's
   * account); such a caller still gets the token in the answer.
   */
  private withCookie(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn): SignedIn {
    if (request.headers.origin === undefined || originAllowed(request, this.config)) setSessionCookie(reply, this.config, signedIn.sessionToken);
    return signedIn;
  }
}
