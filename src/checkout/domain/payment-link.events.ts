import { DomainEvent } from '../../platform/domain/decider';
import { Provider } from './checkout.events';

export type PaymentLinkCreated = DomainEvent<
  'checkout.payment_link.created',
  { slug: string; companyId: string; title: string; amountMinorUnits: string; currency: string; provider: Provider; createdAt: string }
>;

export const paymentLinkStreamId = (slug: string) => `payment_link-${slug}`;
