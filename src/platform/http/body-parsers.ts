import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The one place every request body is parsed (JSON and HTML forms). A body is refused with a 400
 * before any DTO transform or validator sees it when it is not valid UTF-8, nests deeper than
 * `MAX_DEPTH`, has an array longer than `MAX_ARRAY_LENGTH`, a string longer than
 * `MAX_STRING_LENGTH`, or a string (value or key) with a lone UTF-16 surrogate. See docs/decisions.md
 * (issue 15).
 */
export const BODY_LIMITS = {
  /** Objects and arrays nested deeper than this are refused; the deepest real body (a roster row's card) is 3. */
  maxDepth: 32,
  /** The longest real array is a roster of 50 rows; scopes and event types are shorter. */
  maxArrayLength: 1000,
  /** The longest real string field is a 2,048-character URL. */
  maxStringLength: 16 * 1024,
  /** At most this many keys in one object. */
  maxObjectKeys: 200,
  /** At most this many values in the whole body: a full roster is about 500. */
  maxValues: 20_000,
} as const;

/** A body refused by the parser: 400 in the envelope (see `toErrorResponse`). */
export class BodyRejectedError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly code: 'MALFORMED_BODY' | 'BODY_TOO_COMPLEX' | 'INVALID_ENCODING',
    message: string,
  ) {
    super(message);
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Strict UTF-8: a byte sequence that is not UTF-8 is refused instead of being rewritten to U+FFFD. */
export function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new BodyRejectedError('INVALID_ENCODING', 'The request body is not valid UTF-8');
  }
}

/** Refuses a parsed value that is too deep, too wide, too long or holds an ill-formed string. Iterative: no stack to overflow. */
export function checkBodyShape(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  let values = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (++values > BODY_LIMITS.maxValues) throw tooComplex(`it holds more than ${BODY_LIMITS.maxValues} values`);
    if (typeof current === 'string') {
      checkString(current);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= BODY_LIMITS.maxDepth) throw tooComplex(`nested deeper than ${BODY_LIMITS.maxDepth} levels`);
    if (Array.isArray(current)) {
      if (current.length > BODY_LIMITS.maxArrayLength) throw tooComplex(`an array has more than ${BODY_LIMITS.maxArrayLength} items`);
      for (const item of current) stack.push([item, depth + 1]);
      continue;
    }
    const keys = Object.keys(current);
    if (keys.length > BODY_LIMITS.maxObjectKeys) throw tooComplex(`an object has more than ${BODY_LIMITS.maxObjectKeys} fields`);
    for (const key of keys) {
      checkString(key);
      // As Fastify's own parser does: a body that could poison a prototype is refused outright.
      const child = (current as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))) {
        throw new BodyRejectedError('MALFORMED_BODY', `The request body holds a forbidden ${key} field`);
      }
      stack.push([child, depth + 1]);
    }
  }
}

function checkString(text: string): void {
  if (text.length > BODY_LIMITS.maxStringLength) throw tooComplex(`a string is longer than ${BODY_LIMITS.maxStringLength} characters`);
  if (LONE_SURROGATE.test(text)) throw new BodyRejectedError('INVALID_ENCODING', 'The request body holds a string with a lone UTF-16 surrogate');
}

function tooComplex(reason: string): BodyRejectedError {
  return new BodyRejectedError('BODY_TOO_COMPLEX', `The request body is too complex: ${reason}`);
}

/** JSON: strict UTF-8, `JSON.parse` (a syntax error is MALFORMED_BODY), then the shape check. */
export function parseJsonBody(body: Buffer): unknown {
  const text = decodeUtf8(body);
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BodyRejectedError('MALFORMED_BODY', `The request body could not be parsed: ${(error as Error).message}`);
  }
  checkBodyShape(parsed);
  return parsed;
}

/** An HTML form: strict UTF-8 in the bytes and in every percent escape; a flat object of strings. */
export function parseFormBody(body: Buffer): Record<string, string> {
  const text = decodeUtf8(body);
  const form: Record<string, string> = Object.create(null) as Record<string, string>;
  if (text === '') return form;
  const pairs = text.split('&');
  if (pairs.length > BODY_LIMITS.maxObjectKeys) throw tooComplex(`a form has more than ${BODY_LIMITS.maxObjectKeys} fields`);
  for (const pair of pairs) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = decodeFormComponent(at < 0 ? pair : pair.slice(0, at));
    const value = decodeFormComponent(at < 0 ? '' : pair.slice(at + 1));
    checkString(key);
    checkString(value);
    form[key] = value;
  }
  return form;
}

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new BodyRejectedError('INVALID_ENCODING', 'The form holds a percent escape that is not valid UTF-8');
  }
}

/** Installs the JSON and form parsers on the Fastify instance, replacing Fastify's JSON parser. */
export function installBodyParsers(fastify: FastifyInstance, formBodyLimit = 64 * 1024): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request: FastifyRequest, body: Buffer | string, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? Buffer.from(body) : body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  if (fastify.hasContentTypeParser('application/x-www-form-urlencoded')) fastify.removeContentTypeParser('application/x-www-form-urlencoded');
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: formBodyLimit }, (_request: FastifyRequest, body: Buffer | string, done) => {
    try {
      done(null, parseFormBody(typeof body === 'string' ? Buffer.from(body) : body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
