/**
 * Routes of /work/dashboard-contract.md that the service does not document yet (not in schema.d.ts).
 * Typed here by hand so the pages can be written against the contract; each entry goes as soon as the
 * regenerated schema has it (a duplicate key would then be typed twice). Pages for these show "coming
 * soon" while `isPending(path)` is true.
 */
type Get<Query, Out = unknown> = {
  parameters: { query?: Query; header?: never; path?: never; cookie?: never };
  requestBody?: never;
  responses: { 200: { headers: Record<string, unknown>; content: { 'application/json': Out } } };
};
type Item<M> = { parameters: { query?: never; header?: never; path?: never; cookie?: never } } & M;

export interface PendingPaths {
  '/api/commerce/activity': Item<{ get: Get<{ limit?: number }> }>;
}

export const PENDING = new Set<keyof PendingPaths>(['/api/commerce/activity']);
export const isPending = (path: keyof PendingPaths) => PENDING.has(path);
