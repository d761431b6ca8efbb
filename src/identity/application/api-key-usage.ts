import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';

/** When each API key last authenticated a call: operational state, not a business fact (no event per call). */
export const API_KEY_USAGE = 'api_key_usage';

interface ApiKeyUsageDoc {
  id: string;
  lastUsedAt: string;
}

/** A key's use is written at most this often per API process, so a busy integration costs one write a minute. */
export const API_KEY_USAGE_RESOLUTION_MS = 60_000;

/**
 * "Last used" of the dashboard's key list. Coarse by design: a process records a key's use when it has
 * not recorded one in the last minute, so the time shown may be up to a minute (per process) early.
 */
@Injectable()
export class ApiKeyUsage {
  private readonly recorded = new Map<string, number>();

  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async record(keyId: string): Promise<void> {
    const now = performance.now();
    const last = this.recorded.get(keyId);
    if (last !== undefined && now - last < API_KEY_USAGE_RESOLUTION_MS) return;
    if (this.recorded.size >= 10_000) this.recorded.clear();
    this.recorded.set(keyId, now);
    await this.store.putOperational<ApiKeyUsageDoc>(API_KEY_USAGE, { id: keyId, lastUsedAt: this.clock.now().toISOString() });
  }

  async lastUsedAt(keyId: string): Promise<string | null> {
    return (await this.store.getOperational<ApiKeyUsageDoc>(API_KEY_USAGE, keyId))?.lastUsedAt ?? null;
  }
}
