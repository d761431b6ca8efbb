import { SqliteReadStore } from '../../platform/read-store/sqlite/sqlite-read-store';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { tempDir } from '../../../test/support/temp-dir';
import { approved, created, funded, revised, row } from '../../../test/support/split-events';
import { SplitEvent } from '../domain/split.events';
import { foldSplitView, SPLITS, SplitReadModelProjection, SplitView, timedSplitEvent } from './split-read-model.projection';

// Create and approve answer with foldSplitView instead of waiting for the projection: it must be the
// document the projection writes from the same events, field for field, until the Split funds.

const LATER = '2026-01-05T10:00:00.000Z';

const recordedEvents = (events: SplitEvent[]): RecordedEvent[] =>
  events.map((event, revision) => ({
    id: `evt_${revision}`,
    streamId: 'split-spl_1',
    revision,
    position: revision,
    type: event.type,
    data: event.data,
    metadata: { correlationId: 'c', causationId: null, actor: 'usr', occurredAt: revision === 0 ? '2026-01-01T00:00:00.000Z' : LATER },
  }));

async function projected(events: RecordedEvent[]): Promise<SplitView | null> {
  const store = new SqliteReadStore(`${tempDir('split-fold')}/read.db`);
  const projection = new SplitReadModelProjection();
  await store.registerProjection(projection.name, projection.collections);
  try {
    const writer = new StagedWriter(store.generationReader(projection.name, 1));
    for (const event of events) await projection.apply(event, writer);
    return writer.get<SplitView>(SPLITS, 'spl_1');
  } finally {
    await store.close();
  }
}

const POLICY = { requiredApprovals: 2 as const, aboveAmountCents: '50000' };
const rows = [row(1, '60000'), row(2, '40000')];
const recordedApproval: SplitEvent = {
  type: 'split.approval.recorded',
  data: { splitId: 'spl_1', revision: 2, approvedBy: 'user:usr_fin1', approvalsRecorded: 1, approvalsRequired: 2, approvedAt: LATER },
};
const rosterRevised = revised([row(1, '90000')], '90000', LATER);
const rejected: SplitEvent = { type: 'split.leg_a.rejected', data: { splitId: 'spl_1', legAPayoutId: 'po_a', reason: 'Wrong month', rejectedBy: 'usr', rejectedAt: LATER } };

describe('foldSplitView: the Split document from its own events', () => {
  const histories: [string, SplitEvent[]][] = [
    ['created', [created(rows, '110000', '10000', { approvalPolicy: POLICY })]],
    ['created, revised, one of two approvals', [created(rows, '110000', '10000', { approvalPolicy: POLICY }), rosterRevised, recordedApproval]],
    ['created and approved', [created(rows, '100000', '0'), approved]],
    ['created and rejected', [created(rows, '100000', '0'), rejected]],
  ];

  it.each(histories)('given %s, then it is the document the projection writes', async (_name, events) => {
    const recorded = recordedEvents(events);
    const folded = foldSplitView(recorded.map(timedSplitEvent));
    expect(folded).not.toBeNull();
    expect(folded).toEqual(await projected(recorded));
  });

  it('given a funded Split, then it folds to null: payouts and the invoice change the document from then on', () => {
    const recorded = recordedEvents([created(rows, '100000', '0'), approved, funded('100000')]);
    expect(foldSplitView(recorded.map(timedSplitEvent))).toBeNull();
  });

  it('given a stream that does not start with the creation, then it folds to null', () => {
    expect(foldSplitView([])).toBeNull();
    expect(foldSplitView(recordedEvents([approved]).map(timedSplitEvent))).toBeNull();
  });
});
