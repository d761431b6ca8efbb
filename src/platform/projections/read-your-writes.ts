import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { ProjectionEngine } from './projection-engine';

const READ_YOUR_WRITES_TIMEOUT_MS = 5_000;

/**
 * A write endpoint answers only after the read models have applied what it appended, so a client that
 * writes and then reads never sees a 404 or stale data (DESIGN section 1). Bounded: after the timeout
 * the caller gets 503 PROJECTION_LAG and the write stays recorded.
 */
@Injectable()
export class ReadYourWrites {
  constructor(
    private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async after(position: number | null): Promise<void> {
    if (position !== null) await this.engine.waitForPosition(position, READ_YOUR_WRITES_TIMEOUT_MS, this.engine.projectionNames);
  }

  /** Waits for everything a stream holds, e.g. a resource another request just created. */
  async afterStream(streamId: string): Promise<void> {
    const events = await this.events.readStream(streamId);
    await this.after(events.length ? events[events.length - 1]!.position : null);
  }
}
