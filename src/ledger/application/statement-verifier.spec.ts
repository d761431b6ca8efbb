import { credit, debit, Posting } from '../domain/posting';
import { LedgerLineDoc, lineId, lineKey } from '../projections/ledger-lines';
import { verifyStatements } from './statement-verifier';

const posting = (id: string, position: number, entries: Posting['entries']): Posting => ({
  id,
  companyId: 'co_1',
  sequence: position,
  position,
  currency: 'USD',
  kind: 'top_up',
  memo: id,
  postedAt: `2026-11-0${position}T10:00:00.000Z`,
  eventId: `ev-${id}`,
  entries,
});

/** The lines the ledger projection books for these postings, with running balances. */
function booked(postings: Posting[]): LedgerLineDoc[] {
  const balances = new Map<string, bigint>();
  return postings.flatMap((p) =>
    p.entries.map((e, i) => {
      const amount = BigInt(e.credit) - BigInt(e.debit);
      const balance = (balances.get(e.account) ?? 0n) + amount;
      balances.set(e.account, balance);
      const [accountType, owner] = e.account.split(':') as [string, string];
      return {
        id: lineId(p.position, i + 1),
        key: lineKey(p.position, i + 1),
        account: e.account,
        accountType,
        owner,
        currency: p.currency,
        amountCents: amount.toString(),
        balanceAfterCents: balance.toString(),
        type: p.kind,
        source: p.id,
        postingId: p.id,
        eventId: p.eventId,
        position: p.position,
        postedAt: p.postedAt,
        memo: p.memo,
      };
    }),
  );
}

describe('ledger:verify: the books', () => {
  const postings = [
    posting('a', 1, [debit('company_deposits:co_1', 500n), credit('company_balance:co_1', 500n)]),
    posting('b', 2, [debit('company_balance:co_1', 200n), credit('payout_reserve:co_1', 200n)]),
    posting('c', 3, [debit('company_deposits:co_1', 50n), credit('company_balance:co_1', 50n)]),
  ];

  it('holds for lines booked with their running balances, over every random period', () => {
    const report = verifyStatements(booked(postings), postings, 50);
    expect(report).toEqual({ lines: 6, accounts: 3, statements: 150, violations: [] });
  });

  it('finds an entry not booked, a balance that does not follow, and a line out of time order', () => {
    const lines = booked(postings);
    expect(verifyStatements(lines.slice(1), postings).violations.map((v) => v.rule)).toContain('ledger_lines');
    const wrong = lines.map((l) => (l.id === lines[3]!.id ? { ...l, balanceAfterCents: '999' } : l));
    expect(verifyStatements(wrong, postings).violations.map((v) => v.rule)).toContain('running_balance');
    // The last line of company_balance says it was posted before the others: a period that holds it alone does not close.
    const late = lines.map((l) => (l.postingId === 'c' ? { ...l, postedAt: '2026-10-30T10:00:00.000Z' } : l));
    expect(verifyStatements(late, postings, 200).violations.map((v) => v.rule)).toContain('statement');
  });
});
