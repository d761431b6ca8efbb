import { IdentityReadModelProjection } from './identity/projections/identity-read-model.projection';
import { PartiesReadModelProjection } from './parties/projections/parties-read-model.projection';
import { SplitReadModelProjection } from './split/projections/split-read-model.projection';
import { WebhooksReadModelProjection } from './webhooks/projections/webhooks-read-model.projection';
import { webhookServices } from './webhooks/webhooks.composition';
import { splitServices } from './split/split.composition';
import { checkoutServices } from './checkout/checkout.composition';
import { CheckoutReadModelProjection } from './checkout/projections/checkout-read-model.projection';
import { LedgerProjection } from './ledger/projections/ledger.projection';
import { Platform } from './platform/platform';
import { Subscriber } from './platform/projections/projection-batch';

/** Every projection and process manager of the service, in one list: the composition root of the read side. */
export function appSubscribers(platform: Omit<Platform, 'engine'>): Subscriber[] {
  return [
    new IdentityReadModelProjection(),
    new PartiesReadModelProjection(),
    new SplitReadModelProjection(),
    new WebhooksReadModelProjection(),
    new LedgerProjection(),
    new CheckoutReadModelProjection(),
    splitServices(platform).settlement,
    splitServices(platform).rail,
    checkoutServices(platform).processor,
    webhookServices(platform).dispatcher,
  ];
}
