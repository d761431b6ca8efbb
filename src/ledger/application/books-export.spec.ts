import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { csvText, csvTextOfBatches } from '../../platform/http/csv';
import { DocumentReader, FindOptions } from '../../platform/read-store/document-store.port';
import { SqliteReadStore } from '../../platform/read-store/sqlite/sqlite-read-store';
import { LEDGER_CHECKOUT_LINES } from '../projections/checkout-books.projection';
import { LEDGER_LINE_COLLECTIONS, LEDGER_LINES, LedgerLineDoc, lineId, lineKey } from '../projections/ledger-lines';
import { BALANCE_TRANSACTION_CSV, LEDGER_LINE_CSV } from './books.csv';
import { balanceTransactionBatches, viewOfLine } from './books.query';

const line = (position: number, index: number, owner: string, memo = 'a line'): LedgerLineDoc => ({
  id: lineId(position, index),
  key: lineKey(position, index),
  account: `company_balance:${owner}`,
  accountType: 'company_balance',
  owner,
  currency: 'USD',
  amountCents: String(position * 100 - 250),
  balanceAfterCents: String(-position),
  type: 'funding',
  source: `spl_${position}`,
  postingId: `spl_${position}:0001`,
  eventId: `evt-${position}`,
  position,
  postedAt: `2026-03-01T12:00:${String(position).padStart(2, '0')}.000Z`,
  memo,
});

/** The ledger's and the checkout books' line collections in a real SQLite read store, and a reader that counts the rows it hands out. */
async function books(ledger: LedgerLineDoc[], checkout: LedgerLineDoc[]) {
  const store = new SqliteReadStore(join(tempDir('books-export'), 'read.db'));
  await store.registerProjection('ledger', LEDGER_LINE_COLLECTIONS);
  await store.registerProjection('ledger_checkout_books', [{ name: LEDGER_CHECKOUT_LINES, indexes: [['owner', 'key'], ['key']] }]);
  let checkpoint = 0;
  const put = async (projection: string, collection: string, docs: LedgerLineDoc[]) =>
    store.commitProjection({ projection, generation: 1, checkpoint: ++checkpoint, streamRevisions: {}, writes: docs.map((doc) => ({ kind: 'put' as const, collection, doc })) });
  await put('ledger', LEDGER_LINES, ledger);
  await put('ledger_checkout_books', LEDGER_CHECKOUT_LINES, checkout);
  let rowsRead = 0;
  const reader: DocumentReader = {
    get: (collection, id) => store.get(collection, id),
    count: (collection, filter) => store.count(collection, filter),
    find: async <T extends { id: string }>(collection: string, options?: FindOptions) => {
      const rows = await store.find<T>(collection, options);
      rowsRead += rows.length;
      return rows;
    },
  };
  return { store, reader, put, rowsRead: () => rowsRead };
}

async function walk(batches: AsyncIterable<LedgerLineDoc[]>, each?: (batch: LedgerLineDoc[]) => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of batches) {
    expect(batch.length).toBeGreaterThan(0);
    ids.push(...batch.map((l) => l.id));
    await each?.(batch);
  }
  return ids;
}

/** Issue 28: the CSV export of balance transactions reads both line collections on cursors of their own and merges them. */
describe('ledger: the balance transactions export', () => {
  it('gives every line of both collections once, newest first, reading each stored line once', async () => {
    // Interleaved keys: the checkout books book lines numbered from 9001 of the same events as the ledger.
    const ledger = [1, 2, 3, 5, 8, 9, 10].map((p) => line(p, 1, 'co_a'));
    const checkout = [2, 4, 6, 7, 8, 11].map((p) => line(p, 9001, 'co_a'));
    const others = [3, 12].map((p) => line(p, 2, 'co_b'));
    const { store, reader, rowsRead } = await books([...ledger, ...others], checkout);
    const expected = [...ledger, ...checkout].sort((a, b) => (a.key < b.key ? 1 : -1)).map((l) => l.id);

    expect(await walk(balanceTransactionBatches(reader, ['co_a'], {}, 2))).toEqual(expected);
    // Paging both collections together (a page of each, sorted, cut, read again from the cut) read lines twice.
    expect(rowsRead()).toBe(ledger.length + checkout.length);
    // Two owners' lines (a contractor's profiles) merge the same way; the cursor and filters still hold.
    expect(await walk(balanceTransactionBatches(reader, ['co_a', 'co_b'], { cursor: 'bt_9_1', from: '2026-03-01T12:00:03.000Z' }, 3))).toEqual([
      'bt_8_9001',
      'bt_8_1',
      'bt_7_9001',
      'bt_6_9001',
      'bt_5_1',
      'bt_4_9001',
      'bt_3_2',
      'bt_3_1',
    ]);
    await store.close();
  });

  it('a line booked during the walk is newer than the walk: it never shows inside it, and none is lost', async () => {
    const ledger = [1, 2, 3, 4, 5].map((p) => line(p, 1, 'co_a'));
    const checkout = [1, 3].map((p) => line(p, 9001, 'co_a'));
    const { store, reader, put } = await books(ledger, checkout);
    let booked = false;
    const ids = await walk(balanceTransactionBatches(reader, ['co_a'], {}, 2), async () => {
      if (booked) return;
      booked = true;
      await put('ledger', LEDGER_LINES, [line(6, 1, 'co_a')]);
      await put('ledger_checkout_books', LEDGER_CHECKOUT_LINES, [line(7, 9001, 'co_a')]);
    });
    expect(ids).toEqual(['bt_5_1', 'bt_4_1', 'bt_3_9001', 'bt_3_1', 'bt_2_1', 'bt_1_9001', 'bt_1_1']);
    await store.close();
  });

  it('writes the lines a batch at a time as the same bytes as balance transactions one at a time', async () => {
    const lines = [line(3, 1, 'co_a', '=HYPERLINK("x")'), line(2, 1, 'co_a', 'comma, "quote"\r\nnewline'), line(1, 1, 'co_a', '-5')];
    const text = async (chunks: AsyncIterable<string>) => {
      let all = '';
      for await (const chunk of chunks) all += chunk;
      return all;
    };
    async function* inBatches() {
      yield lines.slice(0, 2);
      yield lines.slice(2);
    }
    const batched = await text(csvTextOfBatches(LEDGER_LINE_CSV, inBatches()));
    expect(batched).toBe(await text(csvText(BALANCE_TRANSACTION_CSV, lines.map(viewOfLine))));
    expect(batched.split('\r\n')[1]).toBe(
      `bt_3_1,2026-03-01T12:00:03.000Z,company_balance:co_a,company_balance,funding,spl_3,USD,0.50,50,-0.03,-3,spl_3:0001,evt-3,"'=HYPERLINK(""x"")"`,
    );
  });
});
