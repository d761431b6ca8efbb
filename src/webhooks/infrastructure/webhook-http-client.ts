import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { guardedLookup, parseWebhookUrl } from './ssrf-guard';

export type WebhookPostResult = { kind: 'response'; status: number; latencyMs: number } | { kind: 'error'; error: string; latencyMs: number };

export interface WebhookHttpClientOptions {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  connections?: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;
/** Checked endpoint URLs kept (the check depends only on the URL string and the client's options). */
const CHECKED_URLS_KEPT = 1_000;

/**
 * Sends one webhook attempt. Never throws: every failure (refused URL, DNS, connect, reset, timeout)
 * comes back as { kind: 'error' } so the caller can record it. Redirects are not followed (undici 7
 * only follows them through an explicit interceptor): a 3xx is just a non-2xx answer.
 */
export class WebhookHttpClient {
  private readonly agent: Agent;
  private readonly checkedUrls = new Map<string, { origin: string; path: string }>();

  constructor(private readonly options: WebhookHttpClientOptions) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(options.allowPrivateNetworks), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 30_000,
      connections: options.connections ?? 64,
    });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookPostResult> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      // The URL was checked at registration; checking again catches IP literals, which never reach lookup.
      const target = this.checked(url);
      const response = await this.agent.request({
        ...target,
        method: 'POST',
        headers: withContentType(headers),
        body,
      });
      // Most receivers answer with an empty body: nothing to read, and nothing that could stall.
      if (response.headers['content-length'] === '0') await response.body.dump();
      else await discardBody(response.body, started + this.options.timeoutMs);
      if (performance.now() > started + this.options.timeoutMs) return { kind: 'error', error: `timeout after ${this.options.timeoutMs} ms`, latencyMs: latencyMs() };
      return { kind: 'response', status: response.statusCode, latencyMs: latencyMs() };
    } catch (error) {
      return { kind: 'error', error: describeError(error, this.options.timeoutMs), latencyMs: latencyMs() };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** The URL's origin and path, checked once per URL string (the check depends only on it and the options). */
  private checked(url: string): { origin: string; path: string } {
    let target = this.checkedUrls.get(url);
    if (!target) {
      const parsed = parseWebhookUrl(url, this.options.allowPrivateNetworks);
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      if (this.checkedUrls.size >= CHECKED_URLS_KEPT) this.checkedUrls.clear();
      this.checkedUrls.set(url, target);
    }
    return target;
  }
}

function withContentType(headers: Record<string, string>): Record<string, string> {
  if (headers['content-type'] !== undefined) return headers;
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return hasContentType ? headers : { ...headers, 'content-type': 'application/json' };
}

/**
 * Reads up to 64 KiB (so a keep-alive connection can be reused) and drops the rest with the socket. Not
 * `body.dump()`: it ends quietly when the body stalls, and a stalled body must count as a timeout.
 *
 * The whole attempt must end by `deadline` (started + timeout). The agent's own timeouts bound each
 * phase (connect, headers, the gap between body chunks); this bounds the total at each chunk, so a
 * receiver trickling its body cannot hold a lane for long (and post() checks it once more at the end). (One
 * AbortSignal.timeout per request did the same at about 9 us each, a tenth of a delivery's CPU.)
 */
async function discardBody(body: AsyncIterable<Buffer> & { destroy(): unknown }, deadline: number): Promise<void> {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    if (performance.now() > deadline) throw timedOut(body);
    if (received > MAX_RESPONSE_BYTES) {
      body.destroy();
      return;
    }
  }
}

function timedOut(body: { destroy(): unknown }): Error {
  body.destroy();
  const error = new Error('the attempt took longer than its timeout');
  error.name = 'TimeoutError';
  return error;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

// Duck-typed: errors from node internals and DOMException come from another realm under jest, so
// `instanceof Error` is not reliable.
type ErrorLike = { name?: string; message?: string; code?: string; cause?: ErrorLike };

function describeError(error: unknown, timeoutMs: number): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { name, message, code, cause } = error as ErrorLike;
  if (name === 'TimeoutError' || (code && TIMEOUT_CODES.has(code))) return `timeout after ${timeoutMs} ms`;
  return `${code ?? cause?.code ?? name ?? 'Error'}: ${message ?? '(no message)'}`;
}
