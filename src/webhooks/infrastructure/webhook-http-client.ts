import { performance } from 'node:perf_hooks';
import { Agent, Dispatcher } from 'undici';
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

  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookPostResult> {
    const started = performance.now();
    const { timeoutMs } = this.options;
    return new Promise<WebhookPostResult>((resolve) => {
      try {
        // The URL was checked at registration; checking again catches IP literals, which never reach lookup.
        const { origin, path } = this.checked(url);
        this.agent.dispatch({ origin, path, method: 'POST', headers: withContentType(headers), body }, new AttemptHandler(started, timeoutMs, resolve));
      } catch (error) {
        resolve({ kind: 'error', error: describeError(error, timeoutMs), latencyMs: Math.round(performance.now() - started) });
      }
    });
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
 * One attempt's answer, through undici's dispatch handler rather than `request()`: the status is all
 * an attempt keeps, so no response object, body stream or promise per chunk is made (request() and
 * body.dump() were about a tenth of the delivery worker's main thread, issue 31 webhooks bench).
 *
 * Reads up to 64 KiB of the body (so a keep-alive connection can be reused) and then aborts, dropping
 * the rest with the socket. The whole attempt must end by started + timeout: the agent's own timeouts
 * bound each phase (connect, headers, the gap between body chunks); this bounds the total at each
 * chunk, so a receiver trickling its body cannot hold a lane for long, and once more at the end. (One
 * AbortSignal.timeout per request did the same at about 9 us each, a tenth of a delivery's CPU.)
 */
class AttemptHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private received = 0;
  private settled = false;

  constructor(
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly settle: (result: WebhookPostResult) => void,
  ) {}

  /** Nothing to do at the start; its presence tells undici this handler speaks the controller API. */
  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // Called again after a 1xx informational answer: the last status is the answer's.
    this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (performance.now() > this.started + this.timeoutMs) {
      controller.abort(timedOut());
    } else if (this.received > MAX_RESPONSE_BYTES) {
      // The answer is in: it counts. Aborting drops the rest with the socket; the error undici then
      // reports for the abort finds the attempt settled.
      this.finish({ kind: 'response', status: this.status, latencyMs: this.latencyMs() });
      controller.abort(new Error(`response body over ${MAX_RESPONSE_BYTES} bytes: the rest is not read`));
    }
  }

  onResponseEnd(): void {
    if (performance.now() > this.started + this.timeoutMs) this.finish({ kind: 'error', error: `timeout after ${this.timeoutMs} ms`, latencyMs: this.latencyMs() });
    else this.finish({ kind: 'response', status: this.status, latencyMs: this.latencyMs() });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish({ kind: 'error', error: describeError(error, this.timeoutMs), latencyMs: this.latencyMs() });
  }

  private latencyMs(): number {
    return Math.round(performance.now() - this.started);
  }

  private finish(result: WebhookPostResult): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(result);
  }
}

function timedOut(): Error {
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
