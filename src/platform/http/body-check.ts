import { ErrorDetail } from '../domain/domain-error';
import { validationFailed } from './validation';

/**
 * A hand-written check of a flat JSON body, for the few endpoints too hot for class-validator (see
 * CreateCheckoutBodyPipe). It answers like the global ValidationPipe: unknown fields
 * are refused, every bad field is listed, and the 400 is the same VALIDATION_FAILED envelope.
 *
 *   const check = new BodyCheck(body, ['name', 'note']);
 *   const name = check.required('name', isName, '$property must be ...');
 *   check.done();
 */
export class BodyCheck {
  private readonly body: Record<string, unknown>;
  private readonly details: ErrorDetail[] = [];

  constructor(body: unknown, fields: readonly string[]) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      this.body = {};
      this.details.push({ field: 'body', message: 'the request body must be a JSON object' });
      return;
    }
    this.body = body as Record<string, unknown>;
    for (const field of Object.keys(this.body)) {
      if (!fields.includes(field)) this.details.push({ field, message: `property ${field} should not exist` });
    }
  }

  /** The field's value; a refusal (listed, not thrown) when it is missing, null or fails `test`. */
  required<T>(field: string, test: (value: unknown) => value is T, message: string): T {
    const value = this.own(field);
    if (value === undefined || value === null) this.refuse(field, '$property should not be null or undefined');
    return this.checked(field, value, test, message);
  }

  /** Like `required`, but a missing or null field is undefined (class-validator's IsOptional). */
  optional<T>(field: string, test: (value: unknown) => value is T, message: string): T | undefined {
    const value = this.own(field);
    if (value === undefined || value === null) return undefined;
    return this.checked(field, value, test, message);
  }

  /** Throws the 400 listing every refusal, if there was one. */
  done(): void {
    if (this.details.length > 0) throw validationFailed(this.details);
  }

  /** Only the body's own keys count: nothing inherited from a prototype can stand in for a field. */
  private own(field: string): unknown {
    return Object.hasOwn(this.body, field) ? this.body[field] : undefined;
  }

  private checked<T>(field: string, value: unknown, test: (value: unknown) => value is T, message: string): T {
    if (value !== undefined && value !== null && !test(value)) this.refuse(field, message);
    return value as T;
  }

  private refuse(field: string, message: string): void {
    this.details.push({ field, message: message.replace('$property', field) });
  }
}

/** A predicate for `BodyCheck`: the value is one of `values`. */
export function oneOf<T extends string>(values: readonly T[]): (value: unknown) => value is T {
  const allowed = new Set<unknown>(values);
  return (value: unknown): value is T => allowed.has(value);
}

/** A predicate for `BodyCheck`: a string of `min` to `max` characters. */
export const stringOfLength =
  (min: number, max: number) =>
  (value: unknown): value is string =>
    typeof value === 'string' && value.length >= min && value.length <= max;
