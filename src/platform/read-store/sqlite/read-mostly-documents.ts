/**
 * The stored JSON of documents in read-mostly collections (CollectionSpec.readMostly), by table and id,
 * each with the checkpoint its projection's generation had when it was read (the "stamp").
 *
 * Why this is exact: a projection's documents change only in a commit of its runner, and every such commit
 * moves the generation's checkpoint forward in the same transaction (a batch holds at least one new
 * event). So while the checkpoint is where it was when a body was stored, the body is still what the
 * table holds. The stamp is read before the body (each statement sees the file as new as, or newer than,
 * the one before it), so a body is never older than its stamp; a body stored with a stamp the checkpoint
 * has since left is simply read again. A rebuild's swap changes the table (its name holds the generation).
 *
 * Bodies are kept as text and parsed for every caller, so no caller can change what another reads. Bounded:
 * past `maxEntries` the whole cache starts over (reference data of a few thousand parties fits easily).
 */
export class ReadMostlyDocuments {
  private readonly byTable = new Map<string, Map<string, { stamp: number | null; body: string | null }>>();
  private entries = 0;

  constructor(private readonly maxEntries = 20_000) {}

  /** The body stored at `stamp` (null: the document did not exist), or undefined when none is. */
  lookup(table: string, id: string, stamp: number | null): string | null | undefined {
    const cached = this.byTable.get(table)?.get(id);
    return cached !== undefined && cached.stamp === stamp ? cached.body : undefined;
  }

  /** Stores what the table held for `id` (null: nothing), read after the projection's checkpoint was `stamp`. */
  remember(table: string, id: string, stamp: number | null, body: string | null): void {
    if (this.entries >= this.maxEntries) this.clear();
    let documents = this.byTable.get(table);
    if (!documents) {
      documents = new Map<string, { stamp: number | null; body: string | null }>();
      this.byTable.set(table, documents);
    }
    if (!documents.has(id)) this.entries += 1;
    documents.set(id, { stamp, body });
  }

  clear(): void {
    this.byTable.clear();
    this.entries = 0;
  }
}
