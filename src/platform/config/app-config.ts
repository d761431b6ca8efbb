import { join, resolve } from 'node:path';

export type Role = 'all' | 'api' | 'worker';

/** WORKER_RUNS: what a process that runs workers (ROLE=worker or all) runs of them. */
export type WorkerRuns = 'everything' | 'read-models' | 'process-managers';

export interface AppConfig {
  port: number;
  dataDir: string;
  eventStoreUrl: string | null;
  mongoUrl: string | null;
  role: Role;
  /**
   * `read-models`: the projections only; `process-managers`: the process managers, timers and webhook
   * deliveries only. Two workers split that way keep read-your-writes waits out of the process managers'
   * queue (docs/operations.md#roles).
   */
  workerRuns: WorkerRuns;
  sandbox: boolean;
  publicBaseUrl: string;
  hostedCheckoutUrl: string;
  secretsKey: string | null;
  webhookAllowPrivateNetworks: boolean;
  webhookTimeoutMs: number;
  /** How long a session token stays valid after login, in real time (the sandbox clock does not age it). */
  sessionTtlSeconds: number;
  magicLinkTtlSeconds: number;
  /** PASSWORD_RESET_TTL_SECONDS (issue 29 item 9): how long an emailed password reset link works, in real time (1 h by default). */
  passwordResetTtlSeconds: number;
  earlyPayoutFeeBps: number;
  legAFeeBps: number;
  logLevel: string;
  /** A request (headers and body) must arrive within this time, or the connection is closed with 408. */
  httpRequestTimeoutMs: number;
  /** Connections the HTTP server holds open at once; more are refused at accept. */
  httpMaxConnections: number;
  /** SANDBOX_PROCESSOR_DELAY_MS (sandbox only): how long each sandbox processor charge takes to answer, so tests can race requests. */
  sandboxProcessorDelayMs: number;
  /**
   * TRUST_PROXY: whether the client address (rate limits, logs) comes from X-Forwarded-For. false (the
   * default): the TCP peer's address; true: the left-most forwarded address (only behind a proxy that
   * overwrites the header); a number: that many proxy hops are trusted; a list: the proxies' addresses or
   * CIDR ranges. Passed to Fastify's trustProxy option.
   */
  trustProxy: boolean | number | string[];
  /** Orders started on payment links per client address, per 10 minutes (429 beyond). */
  paymentLinkOrdersPerAddress: number;
  /** Orders started on one payment link, per 10 minutes, whoever starts them (429 beyond). */
  paymentLinkOrdersPerLink: number;
  /** ENTERPRISE_OVERDUE_BLOCK_DAYS (issue 27): an enterprise with an invoice overdue longer than this cannot approve Splits, and its auto-accept is suspended. */
  enterpriseOverdueBlockDays: number;
}

/** A bad setting stops the process before anything starts, naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env): AppConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const base = `http://localhost:${port}`;
  const sandbox = boolean(env, 'SANDBOX', false);
  const secretsKey = optional(env, 'SECRETS_KEY');
  if (secretsKey !== null && !/^[0-9a-f]{64}$/i.test(secretsKey)) {
    throw new ConfigError('SECRETS_KEY', 'must be 64 hexadecimal characters (32 bytes)');
  }
  if (!sandbox && secretsKey === null) throw new ConfigError('SECRETS_KEY', 'is required when SANDBOX is not true');
  const sandboxProcessorDelayMs = integer(env, 'SANDBOX_PROCESSOR_DELAY_MS', 0, 0, 60_000);
  if (!sandbox && sandboxProcessorDelayMs > 0) throw new ConfigError('SANDBOX_PROCESSOR_DELAY_MS', 'is for the sandbox processors only (SANDBOX=true)');
  return {
    port,
    dataDir: resolve(optional(env, 'DATA_DIR') ?? join(process.cwd(), 'data')),
    eventStoreUrl: url(env, 'EVENTSTORE_URL', ['esdb:', 'esdb+discover:']),
    mongoUrl: url(env, 'MONGO_URL', ['mongodb:', 'mongodb+srv:']),
    role: oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all'),
    workerRuns: oneOf(env, 'WORKER_RUNS', ['everything', 'read-models', 'process-managers'] as const, 'everything'),
    sandbox,
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? base,
    hostedCheckoutUrl: url(env, 'HOSTED_CHECKOUT_URL', ['http:', 'https:']) ?? base,
    secretsKey,
    webhookAllowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    sessionTtlSeconds: integer(env, 'SESSION_TTL_SECONDS', 12 * 3600, 1, 30 * 86_400),
    magicLinkTtlSeconds: integer(env, 'MAGIC_LINK_TTL_SECONDS', 7 * 86_400, 1, 30 * 86_400),
    passwordResetTtlSeconds: integer(env, 'PASSWORD_RESET_TTL_SECONDS', 3_600, 1, 86_400),
    earlyPayoutFeeBps: integer(env, 'EARLY_PAYOUT_FEE_BPS', 150, 0, 10_000),
    legAFeeBps: integer(env, 'LEG_A_FEE_BPS', 100, 0, 10_000),
    httpRequestTimeoutMs: integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    httpMaxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', 2_000, 1, 1_000_000),
    sandboxProcessorDelayMs,
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    paymentLinkOrdersPerAddress: integer(env, 'PAYMENT_LINK_ORDERS_PER_ADDRESS', 30, 1, 1_000_000),
    paymentLinkOrdersPerLink: integer(env, 'PAYMENT_LINK_ORDERS_PER_LINK', 300, 1, 1_000_000),
    enterpriseOverdueBlockDays: integer(env, 'ENTERPRISE_OVERDUE_BLOCK_DAYS', 30, 0, 3650),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
  };
}

function optional(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value === '' ? null : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(name, `must be true or false, got ${JSON.stringify(raw)}`);
}

/** false, true, a hop count (1 to 10), or a comma-separated list of IP addresses / CIDR ranges. */
function trustProxy(env: Env, name: string): boolean | number | string[] {
  const raw = optional(env, name);
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return integer(env, name, 0, 1, 10);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(entry) && /[.:]/.test(entry))) return entries;
  throw new ConfigError(name, `must be true, false, a hop count or a comma-separated list of proxy addresses, got ${JSON.stringify(raw)}`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got ${JSON.stringify(raw)}`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return raw.replace(/\/$/, '');
}
