import { IdentityReadModelProjection } from './identity/projections/identity-read-model.projection';
import { Platform } from './platform/platform';
import { Subscriber } from './platform/projections/projection-batch';

/** Every projection and process manager of the service, in one list: the composition root of the read side. */
export function appSubscribers(_platform: Omit<Platform, 'engine'>): Subscriber[] {
  return [new IdentityReadModelProjection()];
}
