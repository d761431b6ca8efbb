import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { ProjectionEngine } from './projection-engine';

const READ_YOUR_WRITES_TIMEOUT_MS = 5_000;

/** A write a client may read next: the stream it went to and its global position (null: nothing written). */
export interface Written {
  streamId: string;
  position: number | null;
}

/**
 * A write endpoint answers only after the read models that read the written stream have applied it, so a
 * client that writes and then reads never sees a 404 or stale data (docs/architecture.md#read-your-writes). Projections
 * that do not read the stream cannot change because of the write and are not waited for. Bounded: after the
 * timeout the caller gets 503 PROJECTION_LAG and the write stays recorded.
 */
@Injectable()
export class ReadYourWrites {
  constructor(
    private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async after(...writes: Written[]): Promise<void> {
    for (const { streamId, position } of writes) {
      if (position !== null) await this.engine.waitForPosition(position, READ_YOUR_WRITES_TIMEOUT_MS, this.engine.projectionsReading(streamId));
    }
  }

  /**
   * Waits for everything a stream holds, e.g. a resource another request just created; `names`: only
   * these of the projections that read it (a read of one document waits for the projection it reads).
   */
  async afterStream(streamId: string, names?: string[]): Promise<void> {
    const events = await this.events.readStream(streamId);
    const last = events[events.length - 1];
    if (!last) return;
    if (names) await this.engine.waitForPosition(last.position, READ_YOUR_WRITES_TIMEOUT_MS, names);
    else await this.after({ streamId, position: last.position });
  }

  /** Waits until the named projections hold every event written so far: a list then shows every write acknowledged before it was asked. */
  async afterHead(names: string[]): Promise<void> {
    const head = await this.events.headPosition();
    if (head !== null) await this.engine.waitForPosition(head, READ_YOUR_WRITES_TIMEOUT_MS, names);
  }
}
