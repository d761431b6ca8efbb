import { ValidationFailedError } from '../domain/domain-error';

/**
 * An ISO 8601 query or body value (already checked by @IsISO8601) as the canonical UTC form stored
 * timestamps use (`2026-11-22T10:00:00.000Z`), so it compares as a string. Refuses, never throws a 500.
 */
export function isoInstant(value: string, field: string): string;
export function isoInstant(value: string | undefined, field: string): string | undefined;
export function isoInstant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) throw new ValidationFailedError(`${field} is not a valid time`, [{ field, message: 'must be an ISO 8601 time' }]);
  return new Date(time).toISOString();
}

/** Refuses a window whose start is after its end. */
export function assertWindow(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from > to) throw new ValidationFailedError('from must not be after to', [{ field: 'from', message: 'must not be after to' }]);
}
