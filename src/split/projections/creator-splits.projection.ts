import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { DistributionData, RowContractor, SPLIT_STREAM_PREFIX } from '../domain/split.events';

/**
 * Issue 29: which Splits ever named a creator payment profile (cpp_) on a row, so a contractor paid through its
 * creator profile finds its upcoming rows (the Splits read model is found by SME or enterprise only). One document
 * per (creator, Split), never removed: a row revised or re-pointed away leaves a pair whose Split simply has no
 * row of that creator any more (the reader checks the Split's rows).
 */
export interface CreatorSplitDoc {
  id: string;
  contractorPaymentProfileId: string;
  splitId: string;
}

export const CREATOR_SPLITS = 'creator_splits';
const HANDLED = new Set(['split.created', 'split.roster.revised', 'split.roster_entry.repointed']);

@Injectable()
@LogSubscriber()
export class CreatorSplitsProjection implements Projection {
  readonly name = 'creator_splits';
  readonly streams = [SPLIT_STREAM_PREFIX];
  readonly collections = [{ name: CREATOR_SPLITS, indexes: [['contractorPaymentProfileId']] }];

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const data = recorded.data as { splitId: string; distributions?: DistributionData[]; contractor?: RowContractor };
    const named = data.distributions ?? (data.contractor ? [data.contractor] : []);
    for (const { contractorPaymentProfileId } of named) {
      if (contractorPaymentProfileId) {
        writer.put<CreatorSplitDoc>(CREATOR_SPLITS, { id: `${contractorPaymentProfileId}:${data.splitId}`, contractorPaymentProfileId, splitId: data.splitId });
      }
    }
  }
}

/** The Splits that named the creator payment profile on a row (one indexed read). */
export async function splitIdsOfCreator(documents: DocumentReader, contractorPaymentProfileId: string): Promise<string[]> {
  return (await documents.find<CreatorSplitDoc>(CREATOR_SPLITS, { filter: { contractorPaymentProfileId } })).map((doc) => doc.splitId);
}
