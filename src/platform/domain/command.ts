/**
 * When and by whom a command is decided: every decider command carries it as `metadata`, typed and
 * required (after event-driven-io/emmett's `metadata.now`). It is stamped in one place,
 * `commandMetadata` (platform/event-sourcing/command-metadata.ts), from the Clock and the caller's
 * CommandContext; a handler never writes `now` or `actor` into a command's data.
 */
export interface CommandMetadata {
  /** The Clock's reading the command is decided at (ISO-8601): its events' `occurredAt` and any time they record. */
  now: string;
  /** Who asked (CommandContext.actor): `user:<id>`, `key:<id>`, or the worker's name. */
  actor: string;
}

/** A decider command: a type tag, what the rule needs, and when and by whom it is decided. */
export interface Command<T extends string = string, D extends object = object> {
  type: T;
  data: D;
  metadata: CommandMetadata;
}
