import { ConcurrencyError, StoreBusyError } from '../event-store/event-store.port';
import { toErrorResponse } from './error-filter';

describe('toErrorResponse', () => {
  it('answers a write refused for a busy event store with 503 STORE_BUSY, not 500', () => {
    const busy = new StoreBusyError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    expect(toErrorResponse(busy)).toEqual({
      status: 503,
      body: { error: { code: 'STORE_BUSY', message: 'The service was too busy to record this request; send it again shortly', details: [] } },
    });
  });

  it('keeps a lost race a 409 and anything unknown a 500', () => {
    expect(toErrorResponse(new ConcurrencyError('s', 'no_stream', 0)).status).toBe(409);
    expect(toErrorResponse(new Error('boom'))).toMatchObject({ status: 500, body: { error: { code: 'INTERNAL_ERROR' } } });
  });
});
