import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { ActivityEntry } from '../domain/activity';
import { ACTIVITY, ActivityDoc } from '../projections/activity-feed.projection';

@Injectable()
export class ActivityQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  /** The company's latest activity, newest first. */
  async recent(companyId: string, limit: number): Promise<ActivityEntry[]> {
    const docs = await this.store.find<ActivityDoc>(ACTIVITY, {
      filter: { companyId },
      sort: [
        { field: 'position', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      limit,
    });
    return docs.map(({ type, occurredAt, summary, resource }) => ({ type, occurredAt, summary, resource }));
  }
}
