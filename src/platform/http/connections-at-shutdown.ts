import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A shutdown does not wait on clients. Fastify's close ends in Node's `server.close()`, which waits for
 * every open connection; it closes the idle keep-alive ones itself, but not a connection that never sent
 * a request (a browser's preconnect, a probe that only opens a socket), and the server's request timeouts
 * stop being checked once it closes. Such a connection kept a shutdown waiting until the client dropped
 * it: minutes with a silent socket, 70 s in the dashboard browser spec (a request whose body trickles in
 * held it for ever). From the close on, those are destroyed (and so is any connection opened meanwhile); a
 * request in flight gets `graceMs` to be answered, then every connection left is closed.
 */
export function closeConnectionsAtShutdown(fastify: FastifyInstance, graceMs: number): void {
  const server = fastify.server;
  const neverUsed = new Set<Socket>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    neverUsed.add(socket);
    socket.once('close', () => neverUsed.delete(socket));
  });
  server.on('request', (request: IncomingMessage) => neverUsed.delete(request.socket));
  fastify.addHook('preClose', (done) => {
    closing = true;
    for (const socket of neverUsed) socket.destroy();
    const closeTheRest = setTimeout(() => server.closeAllConnections(), graceMs);
    closeTheRest.unref();
    server.once('close', () => clearTimeout(closeTheRest));
    done();
  });
}
