import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiData, ApiRaw } from './openapi';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { READ_STORE, StoreLifecycle } from '../read-store/read-store.port';
import { ProjectionEngine } from '../projections/projection-engine';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { Public } from './route-auth';

class ProjectionStatusDto {
  @ApiProperty({ example: 'splits' }) name!: string;
  @ApiProperty({ enum: ['projection', 'processor'] }) kind!: string;
  @ApiProperty({ example: 41 }) checkpoint!: number;
  @ApiProperty({ example: 0, description: 'Events not yet considered' }) lag!: number;
  @ApiProperty({ enum: ['running', 'stalled'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status!: string;
  @ApiProperty({ enum: ['up', 'down'] }) eventStore!: string;
  @ApiProperty({ enum: ['up', 'down'] }) readStore!: string;
  @ApiProperty({ type: [ProjectionStatusDto] }) projections!: ProjectionStatusDto[];
}

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
  @ApiData(HealthDto)
  @ApiResponse({
    status: 503,
    description: 'Degraded: the same report, with the store that is down or the projection that is stalled',
    schema: { type: 'object', properties: { data: { $ref: getSchemaPath(HealthDto) } } },
  })
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

  @ApiRaw('text/plain', 'Prometheus text exposition format')
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
