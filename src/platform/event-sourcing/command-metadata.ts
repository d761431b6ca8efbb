import { Clock } from '../clock/clock';
import { CommandMetadata } from '../domain/command';
import { CommandContext } from './aggregate-repository';

/**
 * The one place a command's metadata is made: the Clock's reading now and the caller's actor. A handler
 * that needs the time before deciding (an id that embeds it) reads it from the metadata it stamped.
 */
export function commandMetadata(clock: Clock, context: Pick<CommandContext, 'actor'>): CommandMetadata {
  return { now: clock.now().toISOString(), actor: context.actor };
}
