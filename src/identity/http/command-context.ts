import type { FastifyRequest } from 'fastify';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { actorOf, Principal } from '../domain/principal';

/** Event metadata for a command issued by an HTTP request: who asked, and the request id to correlate. */
export function commandContext(request: FastifyRequest, principal: Principal | null): CommandContext {
  return { actor: principal ? actorOf(principal) : 'anonymous', correlationId: request.id };
}
