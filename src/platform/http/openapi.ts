import { INestApplication, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ResponseObject, SchemaObject, SecurityRequirementObject, SecuritySchemeObject } from '@nestjs/swagger';
import type { DomainError } from '../domain/domain-error';
import { statusOfKind } from './error-filter';
import { AUTH_REQUIREMENT, ROLE_REQUIREMENT } from './route-auth';

/**
 * The OpenAPI document's answers, from the code (docs/api.md#openapi). Controllers say what an
 * operation returns (`@ApiData`, `@ApiPage`, `@ApiRaw`) and which rules it can break (`@ApiErrors`);
 * `completeOpenApi` then gives every operation, from one place:
 *  - its success answer inside the `{data}` / `{data, meta}` envelope;
 *  - its credentials, read from the same route metadata the auth guard enforces;
 *  - its error answers in the `{error:{code,message,details}}` envelope, one per status, listing the
 *    stable codes: the operation's own, its credential's (401/403), and those every call of its kind
 *    can get (a body: 400/413/415; a write: 409 CONCURRENCY_CONFLICT, 503 PROJECTION_LAG or STORE_BUSY; any: 500).
 */

// ---- Error codes ------------------------------------------------------------------------------------

export interface ApiErrorCode {
  status: number;
  code: string;
  message: string;
}

/** A DomainError class (its code and kind say the status) or a code the platform answers itself. */
export type ApiErrorSource = (abstract new (...args: never[]) => DomainError) | ApiErrorCode;

/** Codes every call with a body can get from the body parser and validation (src/platform/http/body-parsers.ts). */
export const BODY_ERRORS: ApiErrorCode[] = [
  { status: 400, code: 'MALFORMED_BODY', message: 'The request body could not be parsed' },
  { status: 400, code: 'BODY_TOO_COMPLEX', message: 'The request body is too complex: nested deeper than 32 levels' },
  { status: 400, code: 'INVALID_ENCODING', message: 'The request body is not valid UTF-8' },
  { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1 MiB' },
  { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json' },
];
export const VALIDATION_ERROR: ApiErrorCode = { status: 400, code: 'VALIDATION_FAILED', message: 'Invalid request: field' };
/** Codes every write can get: a concurrent change of the same stream, read models not caught up in time, a store too busy to write. */
export const WRITE_ERRORS: ApiErrorCode[] = [
  { status: 409, code: 'CONCURRENCY_CONFLICT', message: 'The resource changed while this request was being processed; retry it' },
  { status: 503, code: 'PROJECTION_LAG', message: 'The change was recorded but is not readable yet; retry the read shortly' },
  { status: 503, code: 'STORE_BUSY', message: 'The service was too busy to record this request; send it again shortly' },
];

/** Any call can fail on the service's side; the answer is still the envelope, and it is logged. */
export const INTERNAL_ERROR: ApiErrorCode = { status: 500, code: 'INTERNAL_ERROR', message: 'Something went wrong on our side; it has been logged' };

const described = new Map<ApiErrorSource, ApiErrorCode>();

/**
 * The status and code of an error source. A DomainError declares its code and kind as constant
 * fields, so an instance tells them; it is built with empty arrays as arguments, which every rule's
 * constructor can format (they take row indexes, field lists or words for the message).
 */
export function errorCodeOf(source: ApiErrorSource): ApiErrorCode {
  if (typeof source !== 'function') return source;
  let code = described.get(source);
  if (!code) {
    const error = Reflect.construct(source, [[], [], [], []]) as DomainError;
    code = { status: statusOfKind(error.kind), code: error.code, message: source.length === 0 ? error.message : `${error.code}: see docs/api.md` };
    described.set(source, code);
  }
  return code;
}

const API_ERRORS = 'paysplit:openapi-errors';
const API_ANSWER = 'paysplit:openapi-answer';

/**
 * The rules an operation (on a method) or every operation of a controller (on the class) can break,
 * as their DomainError classes: `@ApiErrors(SplitNotFoundError, SplitNotPendingApprovalError)`.
 * Credential, body and write errors are added by `completeOpenApi`; do not list them.
 */
export function ApiErrors(...errors: ApiErrorSource[]): ClassDecorator & MethodDecorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = (descriptor?.value as object | undefined) ?? target;
    const existing = (Reflect.getMetadata(API_ERRORS, holder) as ApiErrorCode[] | undefined) ?? [];
    Reflect.defineMetadata(API_ERRORS, [...existing, ...errors.map(errorCodeOf)], holder);
  };
}

// ---- Success answers --------------------------------------------------------------------------------

export class PageMetaDto {
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 42 }) total!: number;
  @ApiProperty({ example: 3 }) totalPages!: number;
}

export class ErrorDetailDto {
  @ApiPropertyOptional({ example: 'roster.0.amountCents', description: 'Where in the request, when the error is about one field' }) field?: string;
  @ApiProperty({ example: 'must be greater than 0' }) message!: string;
}

export class ErrorDto {
  @ApiProperty({ example: 'SPLIT_NOT_FOUND', description: 'Stable upper-snake code (docs/api.md#errors)' }) code!: string;
  @ApiProperty({ example: 'Split not found' }) message!: string;
  @ApiProperty({ type: [ErrorDetailDto] }) details!: ErrorDetailDto[];
}

type Answer = { kind: 'data'; model: Type; isArray: boolean; replayed: boolean } | { kind: 'page'; model: Type } | { kind: 'raw'; contentType: string; description: string };

function answer(value: Answer, models: Type[]): MethodDecorator {
  return (target, key, descriptor) => {
    ApiExtraModels(...models)(target, key, descriptor);
    Reflect.defineMetadata(API_ANSWER, value, descriptor.value as object);
    return descriptor;
  };
}

/**
 * The success answer is `{data: <model>}` (or `{data: [<model>]}` with `isArray`), at the status the
 * route answers (201 for a POST unless @HttpCode says otherwise). `replayed`: a repeat with the same
 * idempotency key answers 200 with the stored result and `Idempotent-Replayed: true`.
 */
export function ApiData(model: Type, options: { isArray?: boolean; replayed?: boolean } = {}): MethodDecorator {
  return answer({ kind: 'data', model, isArray: options.isArray ?? false, replayed: options.replayed ?? false }, [model]);
}

/** A list answer: `{data: [<model>], meta: {page, limit, total, totalPages}}`. */
export function ApiPage(model: Type): MethodDecorator {
  return answer({ kind: 'page', model }, [model, PageMetaDto]);
}

/** An answer outside the JSON envelope (an HTML page, Prometheus text). */
export function ApiRaw(contentType: string, description: string): MethodDecorator {
  return answer({ kind: 'raw', contentType, description }, []);
}

function dataSchema(found: Answer): SchemaObject {
  if (found.kind === 'raw') return { type: 'string' };
  const item = { $ref: getSchemaPath(found.model) };
  if (found.kind === 'page') {
    return { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: item }, meta: { $ref: getSchemaPath(PageMetaDto) } } };
  }
  return { type: 'object', required: ['data'], properties: { data: found.isArray ? { type: 'array', items: item } : item } };
}

// ---- Credentials ------------------------------------------------------------------------------------

/** What a credential requirement (the auth guard's route metadata) means in the document; null = public. */
export interface OpenApiCredentials {
  schemes: Record<string, SecuritySchemeObject>;
  /**
   * `apiKeyScope`: the scope an API key needs, 'any' for a key of any scope, null when no API key is taken.
   * `route.roles` is the route's ROLE_REQUIREMENT metadata (undefined when it declares none); `extensions`
   * are `x-` fields added to the operation (the member roles a session needs, issue 30).
   */
  describe(
    requirement: unknown,
    route: { method: string; roles: unknown },
  ): { security: SecurityRequirementObject[]; errors: ApiErrorSource[]; summary: string; apiKeyScope: string | null; extensions?: Record<string, unknown> } | null;
}

// ---- The pass over the document ---------------------------------------------------------------------

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Completes every operation of `document` from its handler's metadata (see the file comment). Runs
 * once at start; a route whose handler cannot be found (two controllers of one name) is a startup error.
 */
export function completeOpenApi(app: INestApplication, document: OpenAPIObject, credentials: OpenApiCredentials): OpenAPIObject {
  const operations = new Map<string, { method: string; operation: OperationObject }>();
  for (const methods of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, OperationObject>)) {
      if (operation?.operationId) operations.set(operation.operationId, { method, operation });
    }
  }
  const reflector = app.get(Reflector);
  const seen = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const id = `${controller.name}_${name}`;
        if (seen.has(id)) throw new Error(`OpenAPI: two controllers named ${controller.name}; operation ids must be unique`);
        seen.add(id);
        const found = operations.get(id);
        if (!found) continue; // excluded from the document
        const requirement = reflector.getAllAndOverride<unknown>(AUTH_REQUIREMENT, [handler as () => unknown, controller]) ?? { kind: 'session' };
        const roles = reflector.getAllAndOverride<unknown>(ROLE_REQUIREMENT, [handler as () => unknown, controller]);
        const errors = [
          ...((Reflect.getMetadata(API_ERRORS, controller) as ApiErrorCode[] | undefined) ?? []),
          ...((Reflect.getMetadata(API_ERRORS, handler) as ApiErrorCode[] | undefined) ?? []),
        ];
        const credential = credentials.describe(requirement, { method: found.method.toUpperCase(), roles });
        completeOperation(found.method, found.operation, Reflect.getMetadata(API_ANSWER, handler) as Answer | undefined, credential, errors);
      }
    }
  }
  const schemes = { ...(document.components?.securitySchemes ?? {}), ...credentials.schemes };
  delete schemes.bearer; // @ApiBearerAuth() without a name: replaced by the credential's own scheme
  document.components = { ...document.components, securitySchemes: schemes };
  return document;
}

function completeOperation(
  method: string,
  operation: OperationObject,
  found: Answer | undefined,
  credential: ReturnType<OpenApiCredentials['describe']>,
  own: ApiErrorCode[],
): void {
  const responses = operation.responses as Record<string, ResponseObject>;
  const success = Object.keys(responses).find((status) => status.startsWith('2')) ?? (method === 'post' ? '201' : '200');
  if (found) {
    const content = found.kind === 'raw' ? found.contentType : 'application/json';
    const description = found.kind === 'raw' ? found.description : (responses[success]?.description ?? '') || (success === '201' ? 'Created' : 'OK');
    responses[success] = { description, content: { [content]: { schema: dataSchema(found) } } };
    if (found.kind === 'data' && found.replayed) {
      responses['200'] = {
        description: 'A repeat of the same idempotency key: the stored result',
        headers: { 'Idempotent-Replayed': { description: 'true', schema: { type: 'string', enum: ['true'] } } },
        content: { 'application/json': { schema: dataSchema(found) } },
      };
    }
  }

  const errors = [...own];
  if (credential) {
    errors.push(...credential.errors.map(errorCodeOf));
    operation.security = credential.security;
    operation.description = [operation.description, `Credential: ${credential.summary}.`].filter(Boolean).join('\n\n');
    if (credential.apiKeyScope) (operation as unknown as Record<string, unknown>)['x-api-key-scope'] = credential.apiKeyScope;
    Object.assign(operation, credential.extensions ?? {});
  } else {
    // A public route (for the auth guard) may still declare a credential of its own, such as an embed token;
    // one that takes none says so with an empty list, as OpenAPI asks of an operation open to anyone.
    operation.security = (operation.security ?? []).filter((requirement) => !('bearer' in requirement));
  }
  const takesInput = Boolean(operation.requestBody) || (operation.parameters ?? []).some((p) => 'in' in p && p.in === 'query');
  if (takesInput) errors.push(VALIDATION_ERROR);
  if (WRITE_METHODS.has(method)) errors.push(...BODY_ERRORS, ...WRITE_ERRORS);
  errors.push(INTERNAL_ERROR);

  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const error of errors) {
    const list = byStatus.get(error.status) ?? [];
    if (!list.some((e) => e.code === error.code)) list.push(error);
    byStatus.set(error.status, list);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(list);
  }
}

/** One status's error answer: the envelope, its code limited to the listed ones, an example of each. */
function errorResponse(list: ApiErrorCode[]): ResponseObject {
  const codes = list.map((e) => e.code);
  return {
    description: codes.join(', '),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['error'],
          properties: { error: { allOf: [{ $ref: getSchemaPath(ErrorDto) }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }] } },
        },
        examples: Object.fromEntries(list.map((e) => [e.code, { value: { error: { code: e.code, message: e.message, details: [] } } }])),
      },
    },
  };
}
