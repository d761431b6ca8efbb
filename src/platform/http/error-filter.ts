import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorDetail, ErrorKind } from '../domain/domain-error';
import { ProjectionLagError } from '../projections/projection-engine';
import { ConcurrencyError, StoreBusyError } from '../event-store/event-store.port';
import { AppLogger } from '../logging/app-logger';
import { BodyRejectedError } from './body-parsers';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** The HTTP status of a DomainError's kind (also used by the OpenAPI document, src/platform/http/openapi.ts). */
export const statusOfKind = (kind: ErrorKind): number => STATUS_BY_KIND[kind];

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'TOO_MANY_REQUESTS',
  503: 'UNAVAILABLE',
};

export interface ErrorBody {
  error: { code: string; message: string; details: ErrorDetail[] };
}

/** The one place that turns an error into an HTTP status and the `{error:{code,message,details}}` envelope. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(private readonly logger: AppLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body } = toErrorResponse(exception);
    if (status >= 500) {
      this.logger.error({ err: exception, reqId: request.id, url: request.url }, 'request failed');
    }
    const retryAfter = retryAfterSeconds(exception);
    if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody } {
  if (exception instanceof DomainError) {
    return envelope(STATUS_BY_KIND[exception.kind], exception.code, exception.message, exception.details);
  }
  if (exception instanceof ProjectionLagError) {
    return envelope(503, exception.code, exception.publicMessage, []);
  }
  if (exception instanceof StoreBusyError) {
    return envelope(503, exception.code, 'The service was too busy to record this request; send it again shortly', []);
  }
  if (exception instanceof ConcurrencyError) {
    return envelope(409, exception.code, 'The resource changed while this request was being processed; retry it', []);
  }
  if (exception instanceof BodyRejectedError) {
    return envelope(400, exception.code, exception.message, []);
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest surfaces Fastify's body-parser failures (malformed JSON) as a plain 400 HttpException.
    if (status === 400) return envelope(400, 'MALFORMED_BODY', exception.message, []);
    return envelope(status, CODE_BY_STATUS[status] ?? 'HTTP_ERROR', exception.message, []);
  }
  const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return fromFastify(fastifyError.statusCode, fastifyError.code, fastifyError.message ?? 'Bad request');
  }
  return envelope(500, 'INTERNAL_ERROR', 'Something went wrong on our side; it has been logged', []);
}

/** Seconds a client should wait before sending the request again, when the error says. */
function retryAfterSeconds(exception: unknown): number | undefined {
  if (exception instanceof DomainError) return exception.retryAfterSeconds;
  if (exception instanceof StoreBusyError) return STORE_BUSY_RETRY_AFTER_SECONDS;
  return undefined;
}

/** A busy write lock clears within milliseconds once the writer holding it commits: one second is ample. */
const STORE_BUSY_RETRY_AFTER_SECONDS = 1;

function fromFastify(status: number, code: string | undefined, message: string): { status: number; body: ErrorBody } {
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return envelope(413, 'PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MiB', []);
  if (code === 'FST_ERR_BAD_URL') return envelope(400, 'BAD_URL', 'The request path is not a valid URL (a bad percent escape?)', []);
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return envelope(414, 'URI_TOO_LONG', 'A path parameter is longer than 100 characters', []);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return envelope(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json', []);
  if (status === 400) return envelope(400, 'MALFORMED_BODY', `The request body could not be parsed: ${message}`, []);
  return envelope(status, CODE_BY_STATUS[status] ?? 'HTTP_ERROR', message, []);
}

function envelope(status: number, code: string, message: string, details: ErrorDetail[]) {
  return { status, body: { error: { code, message, details } } };
}

/**
 * Fastify answers some errors before any route (and so before Nest's filter) runs: a bad percent
 * escape in the path, a path parameter over `maxParamLength`. This puts them in the envelope too.
 */
export function frameworkErrorHandler(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error);
  // Fastify answers these before any hook runs, so installNoSniff never sees them.
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').header('X-Content-Type-Options', 'nosniff').send(body);
}
