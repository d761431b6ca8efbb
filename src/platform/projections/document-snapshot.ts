/** A document, or part of one, that nobody may change: a staged document. */
export type Frozen<T> = T extends (infer E)[] ? readonly Frozen<E>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/**
 * A frozen copy of a document with exactly the JSON text's meaning (undefined fields dropped, a Date as
 * its string, a bigint refused), without writing the text. Copying and freezing is what keeps a staged
 * document apart from later changes to the object the projection put.
 *
 * A frozen plain object or array is taken as a snapshot already and shared, not copied: the parts of a
 * document put again unchanged, or event data (the live log's events are frozen JSON, recent-events.ts).
 * Marking snapshots in a WeakSet instead cost 5x the copy itself (its GC).
 */
export function snapshotOf<T>(value: T): Frozen<T> {
  return snapshot(value) as Frozen<T>;
}

/** Whether two snapshots hold the same JSON value, the order of object fields aside. */
export function sameSnapshot<T>(a: Frozen<T>, b: Frozen<T>): boolean {
  return sameValue(a, b);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key) || !sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** A private, changeable copy of a snapshot. */
export function thaw<T>(value: Frozen<T>): T {
  return copy(value) as T;
}

function snapshot(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'object':
      if (value === null) return value;
      if (Array.isArray(value)) return Object.isFrozen(value) ? value : Object.freeze(value.map((item) => (isOmitted(item) ? null : snapshot(item))));
      if (!isPlainObject(value)) return snapshot(viaJson(value));
      return Object.isFrozen(value) ? value : Object.freeze(snapshotFields(value as Record<string, unknown>));
    default:
      // bigint: JSON.stringify's own error; undefined, functions and symbols as top-level values have no JSON.
      return viaJson(value);
  }
}

function viaJson(value: unknown): unknown {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function snapshotFields(source: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const field = source[key];
    if (!isOmitted(field)) setField(fields, key, snapshot(field));
  }
  return fields;
}

/** An own field even when it is named `__proto__` (JSON.parse makes those; an assignment would set the prototype). */
function setField(fields: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
  else fields[key] = value;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Objects whose JSON is their own enumerable fields; anything else (a Date, a class with toJSON) goes through JSON. */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy);
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setField(fields, key, copy((value as Record<string, unknown>)[key]));
  return fields;
}
