import { SystemClock } from '../../platform/clock/clock';
import { SecretBox } from '../../platform/crypto/secret-box';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { AppLogger } from '../../platform/logging/app-logger';
import { CompanyWebhooksState } from '../domain/company-webhooks.decider';
import { DeliveryRecord, RecordedAttempt, ReleasedDelivery, WebhookDeliveryStore } from './webhook-delivery-store.port';
import { WebhookDeliveryWorker, WebhookPoster } from './webhook-delivery-worker';

const LANES_PER_ENDPOINT = 64;

function delivery(i: number): DeliveryRecord {
  const at = '2026-11-27T12:00:00.000Z';
  return {
    id: `dlv_${i}`,
    endpointId: 'ep_1',
    companyId: 'co_1',
    eventId: `evt_${i}`,
    eventType: 'split.leg_a.approved',
    body: '{}',
    status: 'pending',
    attempts: [],
    lastAttempt: 0,
    seriesStart: 1,
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
  };
}

/** A worker over in-memory fakes whose poster answers only when told to. */
function harness() {
  const box = new SecretBox('00'.repeat(32));
  const company: CompanyWebhooksState = {
    endpoints: new Map([['ep_1', { endpointId: 'ep_1', url: 'http://receiver.test/hooks', eventTypes: [], enabled: true, onProbation: false, createdAt: '', updatedAt: '' }]]),
    sealedSecret: box.seal('whsec_test'),
  };
  const posted: string[] = [];
  const answers: (() => void)[] = [];
  const poster: WebhookPoster = {
    post: (_url, headers) => {
      posted.push(headers['X-Paysplit-Delivery-Id']!);
      return new Promise((resolve) => answers.push(() => resolve({ kind: 'response', status: 200, latencyMs: 1 })));
    },
  };
  const recorded: string[] = [];
  const released: ReleasedDelivery[] = [];
  let closed = false;
  const store = {
    recordAttempts: (_owner: string, attempts: RecordedAttempt[]) => {
      if (closed) return Promise.reject(new Error('store closed'));
      recorded.push(...attempts.map((a) => a.deliveryId));
      return Promise.resolve(attempts.map((a) => a.deliveryId));
    },
    release: (_owner: string, given: ReleasedDelivery[]) => {
      if (closed) return Promise.reject(new Error('store closed'));
      released.push(...given);
      return Promise.resolve();
    },
    claimDue: () => Promise.resolve([]),
    close: () => {
      closed = true;
      return Promise.resolve();
    },
  } as unknown as WebhookDeliveryStore;
  const aggregates = { load: () => Promise.resolve({ state: company }) } as unknown as AggregateRepository;
  const logger = { error: jest.fn(), warn: jest.fn(), info: jest.fn() } as unknown as AppLogger;
  const clock = new SystemClock();
  const worker = new WebhookDeliveryWorker(store, aggregates, poster, box, clock, clock, 'worker-1', logger);
  return { worker, store, posted, answers, recorded, released, logger };
}

describe('WebhookDeliveryWorker.stop', () => {
  it('starts no attempt once stopping, waits for those under way, and gives the waiting deliveries back due', async () => {
    const { worker, posted, answers, recorded, released, logger } = harness();
    worker.start();
    await worker.handOver(Array.from({ length: LANES_PER_ENDPOINT + 10 }, (_, i) => delivery(i)));
    expect(posted).toHaveLength(LANES_PER_ENDPOINT);

    // Called twice (both wait for the same lanes): each settles.
    const stopped = Promise.all([worker.stop(), worker.stop()]);
    await new Promise((resolve) => setImmediate(resolve));
    for (const answer of answers.splice(0)) answer();
    await stopped;

    // The lanes freed by those answers started nothing new: the 10 that waited went back to the store.
    expect(posted).toHaveLength(LANES_PER_ENDPOINT);
    expect(recorded).toHaveLength(LANES_PER_ENDPOINT);
    expect(released).toEqual(Array.from({ length: 10 }, (_, i) => ({ deliveryId: `dlv_${LANES_PER_ENDPOINT + i}`, keepDue: true })));
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('leaves the store open for the webhook dispatcher, which stops after it; close() closes it', async () => {
    const { worker, store } = harness();
    worker.start();
    await worker.stop();
    await expect(store.release('worker-1', [], '2026-12-07T00:00:00.000Z')).resolves.toBeUndefined();
    await worker.close();
    await expect(store.release('worker-1', [], '2026-12-07T00:00:00.000Z')).rejects.toThrow('store closed');
  });
});
