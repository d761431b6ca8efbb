import { createHmac, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { loadOrCreateSandboxKey } from '../../platform/crypto/secret-box';
import { APP_CONFIG } from '../../platform/platform.tokens';

/**
 * The 6-digit codes that verify a contractor's wallet. Only a hash keyed with SECRETS_KEY is recorded (a
 * plain hash of a 6-digit code is reversed by trying all million), bound to the person and the wallet email.
 */
@Injectable()
export class WalletCodes {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir), 'hex');
  }

  fresh(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  hash(userId: string, walletEmail: string, code: string): string {
    return createHmac('sha256', this.key).update(`contractor-wallet-code:${userId}:${walletEmail}:${code}`).digest('hex');
  }
}
