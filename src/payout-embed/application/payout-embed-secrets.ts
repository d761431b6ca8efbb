import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { loadOrCreateSandboxKey } from '../../platform/crypto/secret-box';
import { sha256Hex } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';

/**
 * The embed token and claim-code hashes. The token is HMAC(SECRETS_KEY, sessionId): 32 bytes nobody
 * can guess without the key, stored nowhere (the event holds only its SHA-256), and the same on an
 * idempotent replay, so a retried create answers the same embedUrl. Claim codes are hashed with the
 * key too: a 6-digit code's plain SHA-256 would be reversible by trying all million codes.
 */
@Injectable()
export class PayoutEmbedSecrets {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir), 'hex');
  }

  embedToken(sessionId: string): string {
    return createHmac('sha256', this.key).update(`payout-embed-token:${sessionId}`).digest('base64url');
  }

  tokenHash(token: string): string {
    return sha256Hex(token);
  }

  /** Whether `token` is the session's (constant time). */
  tokenMatches(token: string, tokenHash: string): boolean {
    const a = Buffer.from(this.tokenHash(token), 'hex');
    const b = Buffer.from(tokenHash, 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  codeHash(sessionId: string, code: string): string {
    return createHmac('sha256', this.key).update(`payout-embed-code:${sessionId}:${code}`).digest('hex');
  }
}
