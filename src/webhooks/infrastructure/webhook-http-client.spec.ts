import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebhookHttpClient } from './webhook-http-client';

// A name that passes the URL check (not an IP literal, not a local suffix) but resolves to loopback,
// as a hostile DNS answer would. Other names resolve normally.
const REBOUND_HOST = 'hooks.rebound.test';
jest.mock('node:dns', () => {
  const actual = jest.requireActual<typeof import('node:dns')>('node:dns');
  return {
    ...actual,
    lookup: (hostname: string, options: object, callback: (...args: unknown[]) => void) =>
      hostname === 'hooks.rebound.test' ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : actual.lookup(hostname, options, callback),
  };
});

interface TestServer {
  url: string;
  port: number;
  requests: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }>;
  connections: number;
  close(): Promise<void>;
}

async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => started.connections++);
  return started;
}

describe('WebhookHttpClient', () => {
  const servers: TestServer[] = [];
  const clients: WebhookHttpClient[] = [];
  const server = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const started = await startServer(handler);
    servers.push(started);
    return started;
  };
  const client = (allowPrivateNetworks: boolean, timeoutMs = 2_000) => {
    const created = new WebhookHttpClient({ allowPrivateNetworks, timeoutMs });
    clients.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('posts the body and headers and reports a 2xx with its latency', async () => {
    const target = await server((_req, res) => res.writeHead(204).end());
    const result = await client(true).post(`${target.url}/hook?x=1`, { 'X-Paysplit-Event': 'webhook.test' }, '{"a":1}');
    expect(result).toEqual({ kind: 'response', status: 204, latencyMs: expect.any(Number) });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(target.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/hook?x=1',
        body: '{"a":1}',
        headers: expect.objectContaining({ 'x-paysplit-event': 'webhook.test', 'content-type': 'application/json' }),
      }),
    ]);
  });

  it('keeps a caller-supplied content type', async () => {
    const target = await server((_req, res) => res.end('ok'));
    await client(true).post(target.url, { 'Content-Type': 'application/json; charset=utf-8' }, '{}');
    expect(target.requests[0].headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('reuses the connection for consecutive posts (keep-alive)', async () => {
    const ports = new Set<number>();
    const target = await server((req, res) => {
      ports.add(req.socket.remotePort!);
      res.end('ok');
    });
    const c = client(true);
    for (let i = 0; i < 6; i++) expect(await c.post(target.url, {}, '{}')).toMatchObject({ kind: 'response', status: 200 });
    // undici's pool may open a second socket (the first is not yet marked idle when the next post
    // starts) and then alternates between them; what matters is that sockets are reused.
    expect(ports.size).toBeLessThan(6);
    expect(target.connections).toBe(ports.size);
  });

  it('reports a 500 as a response', async () => {
    const target = await server((_req, res) => res.writeHead(500).end('boom'));
    expect(await client(true).post(target.url, {}, '{}')).toMatchObject({ kind: 'response', status: 500 });
  });

  it('reads at most 64 KiB of a large response and still answers', async () => {
    const target = await server((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(1024 * 1024, 'x'));
    });
    expect(await client(true).post(target.url, {}, '{}')).toMatchObject({ kind: 'response', status: 200 });
  });

  it('does not follow a redirect', async () => {
    const redirectTarget = await server((_req, res) => res.end('should not be reached'));
    const target = await server((_req, res) => res.writeHead(302, { location: `${redirectTarget.url}/elsewhere` }).end());
    expect(await client(true).post(target.url, {}, '{}')).toMatchObject({ kind: 'response', status: 302 });
    expect(target.requests).toHaveLength(1);
    expect(redirectTarget.requests).toHaveLength(0);
    expect(redirectTarget.connections).toBe(0);
  });

  it('times out on a server that never answers', async () => {
    const target = await server(() => undefined);
    const result = await client(true, 300).post(target.url, {}, '{}');
    expect(result).toEqual({ kind: 'error', error: 'timeout after 300 ms', latencyMs: expect.any(Number) });
    expect(result.latencyMs).toBeGreaterThanOrEqual(250);
    expect(result.latencyMs).toBeLessThan(2_000);
  });

  it('times out on a response body that stalls', async () => {
    const target = await server((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await client(true, 300).post(target.url, {}, '{}')).toMatchObject({ kind: 'error', error: 'timeout after 300 ms' });
  });

  it('times out on a body trickled in small chunks past the timeout, though no gap between chunks is that long', async () => {
    const timers: NodeJS.Timeout[] = [];
    const target = await server((_req, res) => {
      res.writeHead(200);
      timers.push(setInterval(() => res.write('.'), 50));
    });
    try {
      const result = await client(true, 300).post(target.url, {}, '{}');
      expect(result).toMatchObject({ kind: 'error', error: 'timeout after 300 ms' });
      expect(result.latencyMs).toBeGreaterThanOrEqual(300);
      expect(result.latencyMs).toBeLessThan(1_000);
    } finally {
      timers.forEach(clearInterval);
    }
  });

  it('reports a reset connection as an error', async () => {
    const target = await server((req) => req.socket.destroy());
    const result = await client(true).post(target.url, {}, '{}');
    expect(result).toMatchObject({ kind: 'error', error: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET|other side closed/) });
  });

  it('reports a refused connection as an error', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const result = await client(true).post(closed.url, {}, '{}');
    expect(result).toMatchObject({ kind: 'error', error: expect.stringContaining('ECONNREFUSED') });
  });

  it('refuses a private IP literal without connecting when private networks are not allowed', async () => {
    const target = await server((_req, res) => res.end('ok'));
    const c = client(false);
    for (const url of [target.url, `https://127.0.0.1:${target.port}/x`, `https://[::ffff:127.0.0.1]:${target.port}/x`, `https://localhost:${target.port}/x`]) {
      const result = await c.post(url, {}, '{}');
      expect(result).toMatchObject({ kind: 'error', error: expect.stringMatching(/^WEBHOOK_URL_REJECTED: Webhook URL rejected: /) });
    }
    expect(target.requests).toHaveLength(0);
    expect(target.connections).toBe(0);
  });

  it('refuses at connect time a name that resolves to a private address', async () => {
    const target = await server((_req, res) => res.end('ok'));
    const result = await client(false).post(`https://${REBOUND_HOST}:${target.port}/x`, {}, '{}');
    expect(result).toMatchObject({ kind: 'error', error: `ERR_WEBHOOK_SSRF: ${REBOUND_HOST} resolves to 127.0.0.1, which is not a public address` });
    expect(target.connections).toBe(0);
  });

  it('connects through the guarded lookup when private networks are allowed', async () => {
    const target = await server((_req, res) => res.end('ok'));
    expect(await client(true).post(`http://${REBOUND_HOST}:${target.port}/x`, {}, '{}')).toMatchObject({ kind: 'response', status: 200 });
    expect(target.requests[0].headers.host).toBe(`${REBOUND_HOST}:${target.port}`);
  });

  it('never throws, even for garbage URLs', async () => {
    await expect(client(false).post('not a url', {}, '{}')).resolves.toMatchObject({ kind: 'error', error: expect.stringContaining('not a valid absolute URL') });
  });
});
