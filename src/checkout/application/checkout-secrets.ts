import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { loadOrCreateSandboxKey } from '../../platform/crypto/secret-box';
import { sha256Hex } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';

/** What an order's secrets derive from; orders created before issue 15 carry their random plaintext instead. */
export interface OrderSecretSource {
  orderId: string;
  pageToken?: string | null;
  clientSecret?: string | null;
}

/**
 * The hosted page's token and the EMBEDDED clientSecret (the buyer's credentials for an order). Each
 * is HMAC(SECRETS_KEY, purpose + orderId), like Payout Embed's token (32 base36 characters, about 165 bits) that nobody can compute
 * without the key, stored nowhere (the order's events and read model hold only SHA-256 hashes), and
 * the same on an idempotent replay, so a retried create answers the same redirectUrl or clientSecret.
 */
@Injectable()
export class CheckoutSecrets {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir), 'hex');
  }

  pageToken(order: OrderSecretSource): string {
    return order.pageToken ?? this.derive('checkout-page-token', order.orderId);
  }

  clientSecret(order: OrderSecretSource): string {
    return order.clientSecret ?? `${order.orderId}_secret_${this.derive('checkout-client-secret', order.orderId)}`;
  }

  /**
   * The order id of a create with an idempotencyKey: `ord_` + 26 base36 characters (about 134 bits) of
   * HMAC(SECRETS_KEY, company, key). The same key finds the same order with a single append, yet nobody
   * without SECRETS_KEY can compute an order id from the company and the key.
   */
  orderId(companyId: string, idempotencyKey: string): string {
    return `ord_${this.derive('checkout-order-id', JSON.stringify([companyId, idempotencyKey])).slice(-26)}`;
  }

  private derive(purpose: string, orderId: string): string {
    // 32 base36 characters (about 165 bits), the shape these secrets always had: the low digits of the 256-bit HMAC.
    const mac = createHmac('sha256', this.key).update(`${purpose}:${orderId}`).digest('hex');
    return BigInt(`0x${mac}`).toString(36).padStart(32, '0').slice(-32);
  }
}

export const secretHash = (secret: string): string => sha256Hex(secret);

/** Whether `given` is the secret whose hash is `expectedHash` (constant time; no hash opens nothing). */
export function secretMatches(given: string, expectedHash: string | null): boolean {
  if (expectedHash === null) return false;
  const a = Buffer.from(secretHash(given), 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
