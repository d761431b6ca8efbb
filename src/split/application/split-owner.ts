import type { StateReader } from '../../platform/workflows/workflow';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { splitExists } from '../domain/split.state';

/**
 * The SME company that created a Split (the recipient of its webhooks), read from the Split's stream
 * through a workflow's StateReader; null when no such Split exists.
 */
export async function splitOwner(reader: StateReader, splitId: string): Promise<string | null> {
  const { state } = await reader.load(splitStreamId(splitId), splitDecider);
  return splitExists(state) ? state.smeCompanyId : null;
}
