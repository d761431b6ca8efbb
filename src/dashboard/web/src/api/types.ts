/**
 * Shapes of the answers the pages read. The OpenAPI document types requests but not answers yet
 * (its responses carry no schema), so these follow docs/api.md, docs/webhooks.md and docs/checkout.md.
 */
export interface Me {
  userId: string;
  companyId: string;
  companyName: string;
  email: string;
  kind: 'company' | 'contractor';
}

export interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  prefix: string | null;
  lastFour: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Balance {
  currency: string;
  availableCents: string;
  reservedCents: string;
  marginHeldCents?: string;
}

export interface Activity {
  type: string;
  occurredAt: string;
  summary: string;
  resource: { kind: string; id: string };
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  onProbation: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: string;
  succeeded: boolean;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  requestHeaders?: Record<string, string | null> | null;
  requestBody?: string | null;
}

export interface Delivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface EventType {
  type: string;
  subscribable: boolean;
  description: string;
  example: unknown;
}

export interface Distribution {
  id: string;
  contractorDisplayName: string;
  amountCents: string;
  earlyPayoutElected: boolean;
  status: string;
  feeAmountCents: string | null;
  netAmountCents: string | null;
  failureReason: string | null;
}

export interface Split {
  id: string;
  smeCompanyId: string;
  smeCompanyName: string;
  enterpriseCompanyId: string;
  enterpriseCompanyName: string;
  totalAmountCents: string;
  marginAmountCents: string;
  marginStatus: string;
  currency: string;
  status: string;
  distributions: Distribution[];
  createdAt?: string;
  updatedAt?: string;
}

export interface HistoryEntry {
  revision: number;
  type: string;
  occurredAt: string;
  actor: string | null;
  data: Record<string, unknown>;
}

export interface Posting {
  id: string;
  sequence: number;
  currency: string;
  kind: string;
  memo: string;
  postedAt: string;
  entries: { account: string; debit: string; credit: string }[];
}

export interface SplitSetting {
  smeCompanyId: string;
  smeCompanyName: string;
  autoAccept: boolean;
  coverFees: boolean;
  updatedAt?: string;
}

export interface Company {
  companyId: string;
  name: string;
  netTermsDays: number;
}

export interface Order {
  id: string;
  status: string;
  amountMinorUnits: string;
  currency: string;
  provider: string;
  checkoutMode: string;
  externalOrderRef: string | null;
  subscriptionId: string | null;
  card: { brand: string; last4: string } | null;
  createdAt: string;
  paidAt: string | null;
}

export interface Subscription {
  subscriptionId: string;
  status: string;
  intervalUnit: string;
  amountMinorUnits: string;
  currency: string;
  provider: string;
  currentPeriodEnd: string | null;
  createdAt: string | null;
}

export interface PaymentLink {
  slug: string;
  url: string;
  title: string;
  amountMinorUnits: string;
  currency: string;
  provider: string;
  createdAt: string;
}

export interface PayoutSession {
  id: string;
  status: string;
  amountCents: string;
  currency: string;
  recipientEmail: string;
  recipientName: string | null;
  description: string | null;
  expiresAt: string;
  embedUrl?: string;
  allowedOrigins: string[];
  returnUrl: string | null;
  createdAt: string;
}

export interface Earnings {
  balances: { currency: string; availableCents: string }[];
  transfers: { id: string; splitId: string; amountCents: string; currency: string; occurredAt: string; smeCompanyName: string }[];
  withdrawals: Withdrawal[];
  wallet: { email: string; verified: boolean; active: boolean } | null;
}

export interface Withdrawal {
  id: string;
  amountCents: string;
  currency: string;
  status: 'requested' | 'paid' | 'failed';
  requestedAt: string;
}
