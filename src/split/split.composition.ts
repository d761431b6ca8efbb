import { Platform } from '../platform/platform';
import { SandboxRailProcessor } from '../payouts/application/sandbox-rail.processor';
import { MARGIN_RELEASE_TIMER, ROW_TRANSFER_TIMER, SplitSettlementProcessor } from './application/split-settlement.processor';

export interface SplitServices {
  settlement: SplitSettlementProcessor;
  rail: SandboxRailProcessor;
}

type PlatformParts = Omit<Platform, 'engine'>;
const built = new WeakMap<object, SplitServices>();

/** The Split money lifecycle's background parts, built once per process from the platform. */
export function splitServices(platform: PlatformParts): SplitServices {
  const existing = built.get(platform.timers);
  if (existing) return existing;
  const settlement = new SplitSettlementProcessor(platform.aggregates, platform.timers, platform.clock, platform.config);
  platform.timers.register(ROW_TRANSFER_TIMER, settlement.onRowTransferTimer);
  platform.timers.register(MARGIN_RELEASE_TIMER, settlement.onMarginReleaseTimer);
  const services = { settlement, rail: new SandboxRailProcessor(platform.aggregates, platform.clock) };
  built.set(platform.timers, services);
  return services;
}
