import { startApp, RunningApp } from '../../src/bootstrap';
import { SandboxClockService } from '../../src/sandbox/application/sandbox-clock.service';
import { loadConfig } from '../../src/platform/config/app-config';
import { createLogger } from '../../src/platform/logging/app-logger';
import { tempDir } from './temp-dir';

export interface TestApp extends RunningApp {
  request(method: string, path: string, options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  /** Events in the log once background work (process managers, due timers) has settled. */
  eventCount(): Promise<number>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The real service (Fastify listening on a loopback port) on real SQLite files in a fresh directory. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: tempDir('app'), LOG_LEVEL: 'silent', ...env });
  const running = await startApp(config, createLogger(config.logLevel));
  return {
    ...running,
    /** Closes the app, failing the suite if a subscriber was left failing or stalled (e.g. an unlisted stream). */
    async close() {
      const failing = (await running.platform.engine.status()).filter((s) => s.error !== null || s.status === 'stalled');
      await running.close();
      if (failing.length > 0) throw new Error(`subscribers left failing: ${failing.map((s) => `${s.name}: ${s.error}`).join('; ')}`);
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const response = await fetch(`${running.url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async eventCount() {
      // Advancing by nothing runs the sandbox clock's settle loop: due timers fired, subscribers at the head.
      await running.app.get(SandboxClockService).advance(0);
      let count = 0;
      let after: number | undefined;
      for (;;) {
        const batch = await running.platform.events.readAll({ after, maxCount: 1000 });
        if (batch.length === 0) return count;
        count += batch.length;
        after = batch[batch.length - 1]!.position;
      }
    },
  };
}

export async function signup(app: TestApp, name = 'Acme'): Promise<{ companyId: string; userId: string; sessionToken: string; email: string }> {
  const email = `${name.toLowerCase().replace(/\W/g, '')}-${Math.random().toString(36).slice(2)}@example.test`;
  const response = await app.request('POST', '/api/auth/signup', { body: { companyName: name, email, password: 'correct horse battery' } });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${response.text}`);
  return { ...response.body.data, email };
}
