import { Module } from '@nestjs/common';
import { CREDENTIAL_RESOLVER } from './application/credential-resolver.port';
import { AccountDirectory } from './application/account-directory';
import { MagicLinkSignIn } from './application/magic-link-sign-in';
import { ApiKeyUsage } from './application/api-key-usage';
import { CredentialResolverService } from './application/credential-resolver.service';
import { ExpiredCredentialsPurge } from './application/expired-credentials.purge';
import { MagicLinks } from './application/magic-links';
import { Outbox } from './application/outbox';
import { IssueApiKeyHandler } from './application/issue-api-key.handler';
import { LoginHandler } from './application/login.handler';
import { LoginAttempts } from './application/login-attempts';
import { RevokeApiKeyHandler } from './application/revoke-api-key.handler';
import { SessionIssuer } from './application/session-issuer';
import { SignupHandler } from './application/signup.handler';
import { ApiKeysController } from './http/api-keys.controller';
import { AuthController } from './http/auth.controller';
import { IdentityReadModelProjection } from './projections/identity-read-model.projection';
import { MembersProjection } from './projections/members.projection';
import { MembersController } from './http/members.controller';
import { InviteMemberHandler } from './application/invite-member.handler';
import { ChangeMemberRoleHandler } from './application/change-member-role.handler';
import { RemoveMemberHandler } from './application/remove-member.handler';
import { RevokeInvitationHandler } from './application/revoke-invitation.handler';
import { CredentialCutoffs } from './application/credential-cutoffs';
import { PasswordResets } from './application/password-resets';
import { ResetPasswordHandler } from './application/reset-password.handler';

@Module({
  controllers: [AuthController, ApiKeysController, MembersController],
  providers: [
    SessionIssuer,
    MagicLinks,
    Outbox,
    LoginAttempts,
    AccountDirectory,
    MagicLinkSignIn,
    SignupHandler,
    LoginHandler,
    IssueApiKeyHandler,
    RevokeApiKeyHandler,
    CredentialResolverService,
    ApiKeyUsage,
    ExpiredCredentialsPurge,
    IdentityReadModelProjection,
    MembersProjection,
    InviteMemberHandler,
    ChangeMemberRoleHandler,
    RemoveMemberHandler,
    RevokeInvitationHandler,
    CredentialCutoffs,
    PasswordResets,
    ResetPasswordHandler,
    { provide: CREDENTIAL_RESOLVER, useExisting: CredentialResolverService },
  ],
  exports: [CREDENTIAL_RESOLVER, AccountDirectory, MagicLinks, Outbox],
})
export class IdentityModule {}
