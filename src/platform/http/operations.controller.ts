import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { READ_STORE, StoreLifecycle } from '../read-store/read-store.port';
import { ProjectionEngine } from '../projections/projection-engine';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { Public } from './route-auth';

@ApiTags('operations')
@Public()
@Controller()
export class OperationsController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: StoreLifecycle,
    private readonly engine: ProjectionEngine,
    private readonly metrics: MetricsRegistry,
  ) {}

  @Get('health')
  @ApiOperation({ summary: 'Event store, read store and projection lag; 503 when a store is down or a projection is stalled' })
  async health(@Res({ passthrough: true }) reply: FastifyReply) {
    const eventStore = await probe(() => this.events.headPosition());
    const readStore = await probe(() => this.store.ping());
    const projections = readStore === 'up' && eventStore === 'up' ? await this.engine.status() : [];
    const healthy = eventStore === 'up' && readStore === 'up' && projections.every((p) => p.status === 'running');
    void reply.status(healthy ? 200 : 503);
    return {
      status: healthy ? 'ok' : 'degraded',
      eventStore,
      readStore,
      projections: projections.map(({ name, kind, checkpoint, lag, status, error }) => ({ name, kind, checkpoint, lag, status, error })),
    };
  }

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  async scrape(@Res() reply: FastifyReply) {
    // Raw text, outside the JSON envelope: Prometheus reads this format only.
    void reply.send(await this.metrics.render());
  }
}

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  try {
    await check();
    return 'up';
  } catch {
    return 'down';
  }
}
