import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/**
 * A real HTTP receiver for webhook e2e suites: a node:http server on 127.0.0.1 (port 0) that records
 * every request it gets and answers each one with a programmable behaviour.
 */

/** How the receiver answers one request. */
export type ReceiverBehaviour =
  /** Answer this status (after delayMs, if given) with a small body. */
  | { kind: 'status'; status: number; delayMs?: number; body?: string }
  /** Answer a 3xx (302 unless given) with Location: `location` (for example another receiver's url). */
  | { kind: 'redirect'; location: string; status?: number }
  /** Read the request and never answer: the sender has to time out. */
  | { kind: 'hang' }
  /** Read the request and destroy the socket without an answer (a TCP reset where the platform can). */
  | { kind: 'reset' };

export const answer = (status: number, delayMs?: number): ReceiverBehaviour => ({ kind: 'status', status, delayMs });
export const redirectTo = (location: string, status = 302): ReceiverBehaviour => ({ kind: 'redirect', location, status });
export const hang = (): ReceiverBehaviour => ({ kind: 'hang' });
export const reset = (): ReceiverBehaviour => ({ kind: 'reset' });

export interface ReceivedRequest {
  /** 1-based arrival order on this receiver. */
  seq: number;
  method: string;
  /** Path and query as sent (`/hooks/a?x=1`). */
  path: string;
  /** Header names lower-cased; a repeated header is joined with ', '. */
  headers: Record<string, string>;
  /** The body exactly as received. */
  rawBody: Buffer;
  /** Date.now() when the whole request had arrived. */
  receivedAt: number;
  /** What the receiver did with it. */
  behaviour: ReceiverBehaviour['kind'];
}

/** Decides the behaviour of one request, given the request and how many came before it. */
export type BehaviourRule = ReceiverBehaviour | ((request: ReceivedRequest) => ReceiverBehaviour);

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: ReceivedRequest[];
  /** Connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  readonly connections: number;
  /** The behaviour for every request without a queued one (default: answer 200). */
  respondWith(rule: BehaviourRule): void;
  /** Queues behaviours for the next requests, in order; afterwards respondWith's rule applies again. */
  queue(...behaviours: ReceiverBehaviour[]): void;
  /** Requests whose path starts with `pathPrefix`, or all. */
  requestsTo(pathPrefix?: string): ReceivedRequest[];
  /** Resolves once `predicate(requests)` holds (checked at each arrival), or rejects after timeoutMs. */
  waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number, what?: string): Promise<ReceivedRequest[]>;
  /** Resolves with the requests once at least `count` have arrived. */
  waitForCount(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets the requests recorded so far (the queue and rule stay). */
  clear(): void;
  /** Stops listening and destroys every open connection, including hung requests. */
  close(): Promise<void>;
}

/** Parses a received request body as JSON. */
export const jsonOf = (request: ReceivedRequest): any => JSON.parse(request.rawBody.toString('utf8'));

export async function startWebhookReceiver(rule: BehaviourRule = answer(200)): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const queued: ReceiverBehaviour[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let current = rule;
  let connections = 0;
  let closed = false;

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const request: ReceivedRequest = {
        seq: requests.length + 1,
        method: req.method ?? '',
        path: req.url ?? '',
        headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
        behaviour: 'status',
      };
      const behaviour = queued.shift() ?? (typeof current === 'function' ? current(request) : current);
      request.behaviour = behaviour.kind;
      requests.push(request);
      notify();
      respond(behaviour, req, res);
    });
  });
  // Keep-alive on the receiver's side: idle connections stay open long enough for the sender to reuse them.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.requestTimeout = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    respondWith(rule) {
      current = rule;
    },
    queue(...behaviours) {
      queued.push(...behaviours);
    },
    requestsTo(pathPrefix) {
      return pathPrefix === undefined ? [...requests] : requests.filter((request) => request.path.startsWith(pathPrefix));
    },
    waitFor(predicate, timeoutMs = 10_000, what = 'the expected webhook requests') {
      if (predicate(requests)) return Promise.resolve([...requests]);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(requests)) return;
          done();
          resolve([...requests]);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`webhook receiver: timed out after ${timeoutMs} ms waiting for ${what}; got ${requests.length} request(s): ${summary(requests)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    waitForCount(count, timeoutMs = 10_000) {
      return receiver.waitFor((all) => all.length >= count, timeoutMs, `${count} request(s)`);
    },
    clear() {
      requests.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
    },
  };
  return receiver;
}

function respond(behaviour: ReceiverBehaviour, req: IncomingMessage, res: ServerResponse): void {
  switch (behaviour.kind) {
    case 'status': {
      const send = () => {
        if (res.destroyed) return;
        const body = behaviour.body ?? JSON.stringify({ received: true });
        res.writeHead(behaviour.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      };
      if (behaviour.delayMs) setTimeout(send, behaviour.delayMs);
      else send();
      return;
    }
    case 'redirect':
      res.writeHead(behaviour.status ?? 302, { location: behaviour.location, 'content-length': 0 });
      res.end();
      return;
    case 'hang':
      return; // never answered; close() destroys the socket
    case 'reset': {
      const socket = req.socket as Socket & { resetAndDestroy?: () => Socket };
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
      return;
    }
  }
}

function summary(requests: ReceivedRequest[]): string {
  return (
    requests
      .slice(-10)
      .map((request) => `${request.method} ${request.path} ${request.headers['x-paysplit-event'] ?? ''} ${request.headers['x-paysplit-delivery-id'] ?? ''}`)
      .join('; ') || 'none'
  );
}
