import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { IdentityModule } from './identity/identity.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { PartiesModule } from './parties/parties.module';
import { SplitModule } from './split/split.module';
import { LedgerModule } from './ledger/ledger.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { CheckoutModule } from './checkout/checkout.module';
import { PayoutsModule } from './payouts/payouts.module';
import { PayoutEmbedModule } from './payout-embed/payout-embed.module';
import { EarningsModule } from './earnings/earnings.module';
import { ActivityModule } from './activity/activity.module';
import { CollectionModule } from './collection/collection.module';
import { DashboardModule } from './dashboard';
import { CqrsModule } from '@nestjs/cqrs';
import { AppConfig } from './platform/config/app-config';
import { PlatformModule } from './platform/platform.module';
import { AuthGuard } from './identity';
import { IdempotencyKeysPurge } from './platform/http/idempotency-key';
import { ErrorEnvelopeFilter } from './platform/http/error-filter';
import { OperationsController } from './platform/http/operations.controller';
import { PageAssetsController } from './platform/http/page-assets.controller';
import { LOGGER } from './platform/platform.tokens';
import { AppLogger } from './platform/logging/app-logger';

/** The one module graph: `main.ts` serves it over HTTP, `cli.ts` runs it as an application context. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: AppLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        CqrsModule.forRoot(),
        IdentityModule,
        PartiesModule,
        SplitModule,
        LedgerModule,
        WebhooksModule,
        CheckoutModule,
        PayoutsModule,
        PayoutEmbedModule,
        EarningsModule,
        ActivityModule,
        CollectionModule,
        DashboardModule,
        ...(config.sandbox ? [SandboxModule] : []),
      ],
      controllers: [OperationsController, PageAssetsController],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        IdempotencyKeysPurge,
        { provide: APP_FILTER, useFactory: (logger: AppLogger) => new ErrorEnvelopeFilter(logger), inject: [LOGGER] },
      ],
    };
  }
}
