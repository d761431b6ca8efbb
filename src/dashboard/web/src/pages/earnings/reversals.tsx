import type { Earnings } from '../../api/types';
import { EmptyState } from '../../components/ui';
import { money, Time } from '../../lib/format';

/**
 * Issue 26 on the contractor's earnings page: what it owes (the part of a reversal it had already
 * withdrawn; its next payments repay it first) and the rows companies took back.
 */
export function OwedNotice({ balances }: { balances: Earnings['balances'] }) {
  const owing = balances.filter((b) => b.owedCents && b.owedCents !== '0');
  if (owing.length === 0) return null;
  return (
    <div className="alert warn" role="status" data-testid="owed">
      You owe {owing.map((b) => money(b.owedCents, b.currency)).join(' and ')}: a company took back a payment you had already withdrawn. Your next payments repay it first; until
      then nothing is available to withdraw.
    </div>
  );
}

export function ReversalsPanel({ reversals }: { reversals: Earnings['reversals'] }) {
  return (
    <section className="panel" aria-labelledby="reversals-title">
      <h2 id="reversals-title">Taken back</h2>
      {reversals.length === 0 ? (
        <EmptyState title="Nothing taken back">If a company reverses a payment it made you, it shows here.</EmptyState>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="reversals">
          {reversals.map((reversal) => (
            <li key={reversal.id} className="spread" style={{ borderTop: '1px solid var(--line)', padding: '0.55rem 0' }}>
              <span>
                <strong>{reversal.smeCompanyName}</strong>
                <div className="small muted">
                  <Time iso={reversal.occurredAt} />
                  {reversal.owedCents !== '0' ? ` · ${money(reversal.owedCents, reversal.currency)} of it owed` : ''}
                </div>
              </span>
              <span>−{money(reversal.amountCents, reversal.currency)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
