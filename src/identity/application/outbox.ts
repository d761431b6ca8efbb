import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { loadOrCreateSandboxKey, SecretBox } from '../../platform/crypto/secret-box';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';

export const OUTBOX = 'outbox';

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  link: string;
  sentAt: string;
}

/** A message as stored: its body and link (a sign-in token, a claim code) sealed with SECRETS_KEY. */
interface StoredOutboxMessage {
  id: string;
  to: string;
  subject: string;
  sentAt: string;
  sealed: string;
}

/**
 * The service's outgoing mail (in the sandbox, readable at GET /api/sandbox/outbox). Messages carry
 * credentials (magic-link tokens, Payout Embed claim codes), so their body and link are stored sealed
 * (AES-256-GCM under SECRETS_KEY, like webhook signing secrets) and opened only to be listed: a copy of
 * the data directory holds no usable sign-in link. Messages stored before issue 15 are listed as they are.
 */
@Injectable()
export class Outbox {
  private readonly box: SecretBox;

  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new SecretBox(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir));
  }

  async send(message: OutboxMessage): Promise<void> {
    const { body, link, ...rest } = message;
    await this.store.putOperational<StoredOutboxMessage>(OUTBOX, { ...rest, sealed: this.box.seal(JSON.stringify({ body, link })) });
  }

  async list(limit: number): Promise<OutboxMessage[]> {
    const stored = await this.store.listOperational<StoredOutboxMessage | OutboxMessage>(OUTBOX, limit);
    return stored.map((message) => {
      if (!('sealed' in message)) return message;
      const { sealed, ...rest } = message;
      return { ...rest, ...(JSON.parse(this.box.open(sealed)) as { body: string; link: string }) };
    });
  }
}
