import { applyDecorators, createParamDecorator, ExecutionContext, Inject, Injectable, OnModuleInit, PipeTransform, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../clock/clock';
import { ValidationFailedError } from '../domain/domain-error';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, requestFingerprint } from '../domain/idempotency';
import { sha256Hex } from '../ids/ids';
import { OPERATIONAL_STORE, OperationalStore } from '../read-store/operational-store.port';
import { TimerWorker } from '../timers/timer-worker';
import { Enveloped, envelopeOf } from './envelope';
import { toErrorResponse } from './error-filter';
import { ApiErrors } from './openapi';

/**
 * The `Idempotency-Key` header (docs/api.md#idempotency), one mechanism for every POST that creates or
 * moves money: a route declares `@IdempotentRoute()` next to its auth decorator and runs its work through
 * the `@IdempotencyKey()` parameter, `once(() => ...)`. Stripe's semantics: the first request with a key
 * runs and its answer (status and body) is stored for 24 hours per company and route; the same key with
 * the same request replays that answer (`Idempotent-Replayed: true`) without running anything; with
 * another request it is 409 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409
 * IDEMPOTENCY_KEY_IN_USE. Without the header the work simply runs.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_ROUTE = 'paysplit:idempotent-route';
/** Where `@IdempotencyKey()` marks the handler parameter it fills (checked by `@IdempotentRoute()`). */
const IDEMPOTENCY_KEY_PARAMETER = 'paysplit:idempotency-key-parameter';
/** Operational collection of the stored keys and answers. */
export const IDEMPOTENCY_KEYS = 'idempotency_keys';
/** How long a key and its answer are kept (by the Clock): at least 24 hours, as Stripe. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * Marks a route whose POST creates or moves money: it takes an optional `Idempotency-Key` header. The
 * handler must take an `@IdempotencyKey()` parameter (refused when the class is defined, so a route cannot
 * document the header and ignore it).
 */
export function IdempotentRoute(): MethodDecorator {
  const documented = applyDecorators(
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
  return (target, key, descriptor) => {
    // Parameter decorators are applied before the method's: the parameter is known by now.
    if (Reflect.getMetadata(IDEMPOTENCY_KEY_PARAMETER, target, key) === undefined) {
      throw new Error(`@IdempotentRoute() on ${target.constructor.name}.${String(key)}, which takes no @IdempotencyKey() parameter`);
    }
    documented(target, key, descriptor);
  };
}

/** Runs a handler's work at most once per Idempotency-Key; what it answers is the work's result or the stored answer. */
export type OnceByKey = <T>(work: () => Promise<T>) => Promise<T | Enveloped>;

/** The handler parameter of an `@IdempotentRoute()`: the `once` its work runs through. */
export function IdempotencyKey(): ParameterDecorator {
  const parameter = createParamDecorator((_data: unknown, context: ExecutionContext): HttpExchange => {
    const http = context.switchToHttp();
    return { request: http.getRequest(), reply: http.getResponse() };
  })(IdempotencyKeyPipe);
  return (target, key, index) => {
    Reflect.defineMetadata(IDEMPOTENCY_KEY_PARAMETER, index, target, key!);
    parameter(target, key, index);
  };
}

interface HttpExchange {
  request: FastifyRequest & { principal?: Caller };
  reply: FastifyReply;
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

/**
 * Turns the request into its `once`. Runs after the guards and the body's pipes, as the handler does: a
 * request they refuse claims no key.
 */
@Injectable()
export class IdempotencyKeyPipe implements PipeTransform<HttpExchange, OnceByKey> {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  transform({ request, reply }: HttpExchange): OnceByKey {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return (work) => work();
    const key = keyOf(header);
    return (work) => this.once(key, request, reply, work);
  }

  private async once<T>(key: string, request: HttpExchange['request'], reply: FastifyReply, work: () => Promise<T>): Promise<T | Enveloped> {
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
      return new Enveloped(stored.body);
    }
    let result: T;
    try {
      result = await work();
    } catch (error) {
      const answer = toErrorResponse(error);
      // Refused (4xx): nothing was written, so the key is free for a corrected retry. A failure on our
      // side (5xx) may come after money moved: its answer is kept and replayed, never run again.
      if (answer.status < 500) await this.store.deleteOperational(IDEMPOTENCY_KEYS, claim.id);
      else await this.store.putOperational<IdempotencyRecord>(IDEMPOTENCY_KEYS, { ...claim, state: 'answered', status: answer.status, body: answer.body });
      throw error;
    }
    // Stored as sent: the envelope, as JSON would carry it.
    const sent = JSON.parse(JSON.stringify(envelopeOf(result))) as unknown;
    await this.store.putOperational<IdempotencyRecord>(IDEMPOTENCY_KEYS, { ...claim, state: 'answered', status: reply.statusCode, body: sent });
    return result;
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
