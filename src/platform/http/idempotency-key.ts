import { applyDecorators, CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, OnModuleInit, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { CLOCK, Clock } from '../clock/clock';
import { ValidationFailedError } from '../domain/domain-error';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, requestFingerprint } from '../domain/idempotency';
import { sha256Hex } from '../ids/ids';
import { OPERATIONAL_STORE, OperationalStore } from '../read-store/operational-store.port';
import { TimerWorker } from '../timers/timer-worker';
import { toErrorResponse } from './error-filter';
import { ApiErrors } from './openapi';

/**
 * The `Idempotency-Key` header (docs/api.md#idempotency), one mechanism for every POST that creates or
 * moves money: a route declares `@IdempotentRoute()` next to its auth decorator; the global
 * `IdempotencyInterceptor` does the rest. Stripe's semantics: the first request with a key runs and its
 * answer (status and body) is stored for 24 hours per company and route; the same key with the same
 * request replays that answer (`Idempotent-Replayed: true`) without running anything; with another
 * request it is 409 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 IDEMPOTENCY_KEY_IN_USE.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_ROUTE = 'paysplit:idempotent-route';
/** Operational collection of the stored keys and answers. */
export const IDEMPOTENCY_KEYS = 'idempotency_keys';
/** How long a key and its answer are kept (by the Clock): at least 24 hours, as Stripe. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Marks a route whose POST creates or moves money: it takes an optional `Idempotency-Key` header. */
export function IdempotentRoute(): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, true),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Up to 255 printable ASCII characters, unique per operation (a UUID). A retry with the same key and request replays the first answer (its status and body, header Idempotent-Replayed: true) for 24 hours; another request with the key is 409 IDEMPOTENCY_KEY_REUSED; a retry while the first still runs is 409 IDEMPOTENCY_KEY_IN_USE. Keys are per company and route (docs/api.md#idempotency).',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    }),
    ApiErrors(IdempotencyKeyReusedError, IdempotencyKeyInUseError),
  );
}

/** A stored key: claimed while its first request runs, then its answer. */
export interface IdempotencyRecord {
  id: string;
  companyId: string;
  route: string;
  fingerprint: string;
  state: 'in_flight' | 'answered';
  status: number | null;
  body: unknown;
  createdAt: string;
  expiresAt: string;
}

/** The caller as the auth guard left it on the request (platform does not import identity). */
interface Caller {
  kind: string;
  companyId: string;
  userId?: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.reflector.get<boolean>(IDEMPOTENT_ROUTE, context.getHandler())) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal?: Caller }>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    return from(this.once(keyOf(header), request, context.switchToHttp().getResponse<FastifyReply>(), next));
  }

  private async once(key: string, request: FastifyRequest & { principal?: Caller }, reply: FastifyReply, next: CallHandler): Promise<unknown> {
    const caller = request.principal;
    if (!caller) throw new Error('@IdempotentRoute() on a route without a caller: keys are kept per company');
    const route = `${request.method} ${request.routeOptions.url}`;
    // The same key from another user of the company is another request: it never replays their answer.
    const fingerprint = requestFingerprint({ route, params: request.params, body: request.body ?? null, user: caller.kind === 'session' ? (caller.userId ?? null) : null });
    const now = this.clock.now();
    const claim: IdempotencyRecord = {
      id: sha256Hex(JSON.stringify([caller.companyId, route, key])),
      companyId: caller.companyId,
      route,
      fingerprint,
      state: 'in_flight',
      status: null,
      body: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_SECONDS * 1000).toISOString(),
    };
    const stored = await this.store.claimOperational(IDEMPOTENCY_KEYS, claim, claim.createdAt);
    if (stored) {
      if (stored.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError(IDEMPOTENCY_KEY_HEADER);
      if (stored.state === 'in_flight') throw new IdempotencyKeyInUseError();
      void reply.status(stored.status!).header('Idempotent-Replayed', 'true');
      return stored.body;
    }
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      const answer = toErrorResponse(error);
      // Refused (4xx): nothing was written, so the key is free for a corrected retry. A failure on our
      // side (5xx) may come after money moved: its answer is kept and replayed, never run again.
      if (answer.status < 500) await this.store.deleteOperational(IDEMPOTENCY_KEYS, claim.id);
      else await this.store.putOperational<IdempotencyRecord>(IDEMPOTENCY_KEYS, { ...claim, state: 'answered', status: answer.status, body: answer.body });
      throw error;
    }
    const plain: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
    await this.store.putOperational<IdempotencyRecord>(IDEMPOTENCY_KEYS, { ...claim, state: 'answered', status: reply.statusCode, body: plain ?? null });
    return body;
  }
}

function keyOf(header: string | string[]): string {
  const key = Array.isArray(header) ? null : header;
  if (key === null || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(key)) {
    throw new ValidationFailedError(`Invalid request: ${IDEMPOTENCY_KEY_HEADER} must be one header of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`, [
      { field: IDEMPOTENCY_KEY_HEADER, message: `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters` },
    ]);
  }
  return key;
}

/** Keys past their 24 hours are deleted once a minute where timers fire (by the Clock, as they expire). */
@Injectable()
export class IdempotencyKeysPurge implements OnModuleInit {
  constructor(
    private readonly timers: TimerWorker,
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timers.addPurge(`expired ${IDEMPOTENCY_KEYS}`, (_realNowMs, limit) => this.store.purgeExpiredOperational(IDEMPOTENCY_KEYS, this.clock.now().toISOString(), limit));
  }
}
