import { DomainEvent } from '../../platform/domain/decider';
import { Provider } from './checkout.events';

export type PaymentLinkCreated = DomainEvent<
  'checkout.payment_link.created',
  { slug: string; companyId: string; title: string; amountMinorUnits: string; currency: string; provider: Provider; createdAt: string }
>;

export const PAYMENT_LINK_STREAM_PREFIX = 'payment_link-';
export const paymentLinkStreamId = (slug: string) => `${PAYMENT_LINK_STREAM_PREFIX}${slug}`;
