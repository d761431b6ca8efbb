import pino, { Logger } from 'pino';

/** pino is the one logger: Fastify request logs, Nest's own messages and workers all go through it. */
export type AppLogger = Logger;

export function createLogger(level: string): AppLogger {
  return pino({ level, base: { service: 'paysplit' } });
}
