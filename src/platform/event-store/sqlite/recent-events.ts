import { BoundedMap } from '../../caching/bounded-map';
import { RecordedEvent } from '../event-store.port';

/**
 * The last few thousand events read from the log, by position, parsed once and frozen. Every subscriber
 * of a process reads the same new events right after one another; the first read goes to SQLite, the
 * others are served from here. Only an unbroken run of positions is served, so an event this cache has
 * not seen is always read from the file.
 */
export class RecentEvents {
  private readonly byPosition: BoundedMap<number, RecordedEvent>;

  constructor(capacity: number) {
    this.byPosition = new BoundedMap(capacity);
  }

  /** Events at after+1, after+2, ... for as long as they are cached, at most `maxCount`. */
  runAfter(after: number, maxCount: number): RecordedEvent[] {
    const run: RecordedEvent[] = [];
    for (let position = after + 1; run.length < maxCount; position++) {
      const event = this.byPosition.get(position);
      if (!event) break;
      run.push(event);
    }
    return run;
  }

  remember(events: RecordedEvent[]): RecordedEvent[] {
    return events.map((event) => {
      const known = this.byPosition.get(event.position);
      if (known) return known;
      const frozen = deepFreeze(event);
      this.byPosition.set(event.position, frozen);
      return frozen;
    });
  }
}

/** Shared between subscribers, so no one may change an event another is about to read. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
