import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { AbandonPayoutEmbedReservationHandler } from './application/abandon-payout-embed-reservation.handler';
import { CancelPayoutEmbedSessionHandler } from './application/cancel-payout-embed-session.handler';
import { CreatePayoutEmbedSessionHandler } from './application/create-payout-embed-session.handler';
import { ConfirmPayoutEmbedSessionHandler } from './application/confirm-payout-embed-session.handler';
import { ClaimPayoutHandler } from './application/claim-payout.handler';
import { ExpirePayoutEmbedSessionHandler } from './application/expire-payout-embed-session.handler';
import { NamePayoutWalletHandler } from './application/name-payout-wallet.handler';
import { SendClaimCodeHandler } from './application/send-claim-code.handler';
import { SettleReservationHandler } from './application/settle-reservation.handler';
import { SettleSandboxPayoutHandler } from './application/settle-sandbox-payout.handler';
import { PayoutEmbedLifecycleProcessManager } from './application/payout-embed-lifecycle.process-manager';
import { CreditSplitMarginHandler } from './application/credit-split-margin.handler';
import { SplitMarginCreditProcessManager } from './application/split-margin-credit.process-manager';
import { ReleaseSplitFeesHandler } from './application/release-split-fees.handler';
import { SetAsideSplitFeesHandler } from './application/set-aside-split-fees.handler';
import { SplitFeesReleaseProcessManager } from './application/split-fees-release.process-manager';
import { PayoutEmbedQueries } from './application/payout-embed.queries';
import { PayoutEmbedSecrets } from './application/payout-embed-secrets';
import { TopUpBalanceHandler } from './application/top-up-balance.handler';
import { PayInvoiceFromBalanceHandler } from './application/pay-invoice-from-balance.handler';
import { CreditInvoiceOverpaymentHandler } from './application/credit-invoice-overpayment.handler';
import { CreditSplitReturnHandler } from './application/credit-split-return.handler';
import { SplitReturnCreditProcessManager } from './application/split-return-credit.process-manager';
import { EmbedPayoutsApiController, EmbedPayoutsPageController } from './http/embed-payouts.controller';
import { IntegrationPayoutEmbedController } from './http/integration-payout-embed.controller';
import { PayoutEmbedSessionsProjection } from './projections/payout-embed-sessions.projection';

/** What the platform's server and the recipient's page call. */
const useCases = [CreatePayoutEmbedSessionHandler, CancelPayoutEmbedSessionHandler, SendClaimCodeHandler, ClaimPayoutHandler, NamePayoutWalletHandler, TopUpBalanceHandler];

/** What the lifecycle workflow sends. */
const lifecycle = [PayoutEmbedLifecycleProcessManager, ExpirePayoutEmbedSessionHandler, SettleSandboxPayoutHandler, SettleReservationHandler, AbandonPayoutEmbedReservationHandler];

/** Released Split margins become reservable balance; the fees an SME covers are set aside from it, and what they did not use goes back. */
const splitMoney = [SplitMarginCreditProcessManager, CreditSplitMarginHandler, SetAsideSplitFeesHandler, SplitFeesReleaseProcessManager, ReleaseSplitFeesHandler];

/** Payout Embed: company balance reservations, sessions, the embed page and its API (docs/payout-embed.md). */
@Module({
  imports: [IdentityModule],
  controllers: [IntegrationPayoutEmbedController, EmbedPayoutsApiController, EmbedPayoutsPageController],
  providers: [
    PayoutEmbedSecrets,
    PayoutEmbedQueries,
    PayoutEmbedSessionsProjection,
    ...useCases,
    ...lifecycle,
    ...splitMoney,
    // Issue 27: invoices paid from the balance, overpayments credited back to it.
    PayInvoiceFromBalanceHandler,
    CreditInvoiceOverpaymentHandler,
    // Issue 26: what row reversals and take-backs return to the SME becomes reservable.
    SplitReturnCreditProcessManager,
    CreditSplitReturnHandler,
    // Issue 30: a second member confirms a session above the two-person threshold.
    ConfirmPayoutEmbedSessionHandler,
  ],
})
export class PayoutEmbedModule {}
