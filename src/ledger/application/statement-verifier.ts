import { Posting } from '../domain/posting';
import { LedgerLineDoc } from '../projections/ledger-lines';
import { composeStatement } from './books.query';

export interface StatementViolation {
  rule: 'ledger_lines' | 'running_balance' | 'statement';
  message: string;
}

export interface StatementReport {
  lines: number;
  accounts: number;
  /** Statements composed and checked (random periods per account). */
  statements: number;
  violations: StatementViolation[];
}

/** A small deterministic generator (mulberry32): the periods are random but the same on every run of the same log. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The books' identities (issue 28), checked by ledger:verify on the replayed log:
 *  - every entry of every posting is booked as exactly one line, for its signed amount;
 *  - per account and currency, in log order, each line's balance is the one before plus its amount, and
 *    the last is what the postings add up to;
 *  - over random periods of every account, the statement's opening balance plus its lines is its closing
 *    balance (composed as GET /api/commerce/statements composes it).
 */
export function verifyStatements(lines: LedgerLineDoc[], postings: Posting[], periodsPerAccount = 5, seed = 28): StatementReport {
  const violations: StatementViolation[] = [];
  const linesOf = new Map<string, LedgerLineDoc[]>();
  const ids = new Set<string>();
  for (const line of lines) {
    // The ledger's and the checkout books' lines share one id space (and cursor): an id twice would page wrongly.
    if (ids.has(line.id)) violations.push({ rule: 'ledger_lines', message: `${line.id} is booked twice` });
    ids.add(line.id);
    const list = linesOf.get(line.postingId);
    if (list) list.push(line);
    else linesOf.set(line.postingId, [line]);
  }
  const expected = new Map<string, bigint>();
  for (const posting of [...postings].sort((a, b) => a.position - b.position || a.sequence - b.sequence)) {
    const booked = linesOf.get(posting.id) ?? [];
    const amounts = posting.entries.map((e) => `${e.account}=${BigInt(e.credit) - BigInt(e.debit)}`).sort();
    const bookedAmounts = booked.map((l) => `${l.account}=${l.amountCents}`).sort();
    if (amounts.join() !== bookedAmounts.join())
      violations.push({ rule: 'ledger_lines', message: `${posting.id}: entries ${amounts.join(', ')} booked as ${bookedAmounts.join(', ') || 'nothing'}` });
    for (const entry of posting.entries) {
      const key = `${posting.currency}:${entry.account}`;
      expected.set(key, (expected.get(key) ?? 0n) + BigInt(entry.credit) - BigInt(entry.debit));
    }
  }
  const byAccount = new Map<string, LedgerLineDoc[]>();
  for (const line of lines) {
    const key = `${line.currency}:${line.account}`;
    const list = byAccount.get(key);
    if (list) list.push(line);
    else byAccount.set(key, [line]);
  }
  const next = random(seed);
  let statements = 0;
  for (const [key, unsorted] of byAccount) {
    const account = unsorted.sort((a, b) => (a.key < b.key ? -1 : 1));
    let balance = 0n;
    for (const line of account) {
      balance += BigInt(line.amountCents);
      if (BigInt(line.balanceAfterCents) !== balance) {
        violations.push({ rule: 'running_balance', message: `${key}: ${line.id} says ${line.balanceAfterCents} after it, the lines before it and it add up to ${balance}` });
        balance = BigInt(line.balanceAfterCents);
      }
    }
    if (balance !== (expected.get(key) ?? 0n))
      violations.push({ rule: 'running_balance', message: `${key}: lines end at ${balance}, postings add up to ${expected.get(key) ?? 0n}` });
    // The earliest and latest times, not the first and last lines: a line posted out of time order must be reachable.
    const times = account.map((l) => Date.parse(l.postedAt));
    const first = times.reduce((a, b) => Math.min(a, b)) - 86_400_000;
    const span = times.reduce((a, b) => Math.max(a, b)) + 86_400_000 - first;
    for (let i = 0; i < periodsPerAccount; i++) {
      const [a, b] = [first + Math.floor(next() * span), first + Math.floor(next() * span)].sort((x, y) => x - y) as [number, number];
      const from = new Date(a).toISOString();
      const to = new Date(b).toISOString();
      const before = account.filter((l) => l.postedAt < from).sort((x, y) => (x.postedAt === y.postedAt ? (x.key < y.key ? 1 : -1) : x.postedAt < y.postedAt ? 1 : -1))[0] ?? null;
      const within = account.filter((l) => l.postedAt >= from && l.postedAt < to);
      const statement = composeStatement(account[0]!.account, account[0]!.currency, from, to, before, within);
      statements += 1;
      if (BigInt(statement.openingBalanceCents) + BigInt(statement.netChangeCents) !== BigInt(statement.closingBalanceCents))
        violations.push({
          rule: 'statement',
          message: `${key} over [${from}, ${to}): opening ${statement.openingBalanceCents} + lines ${statement.netChangeCents} != closing ${statement.closingBalanceCents}`,
        });
    }
  }
  return { lines: lines.length, accounts: byAccount.size, statements, violations };
}
