import type { components } from '../../api/schema';
import { EmptyState, StatusBadge } from '../../components/ui';
import { money, Time } from '../../lib/format';

type Upcoming = components['schemas']['UpcomingEarningDto'];

/** Issue 29: rows of approved Splits that have not reached the contractor yet, with the day they are paid. */
export function UpcomingPanel({ rows }: { rows: Upcoming[] }) {
  return (
    <section className="panel" aria-labelledby="upcoming-title">
      <h2 id="upcoming-title">Upcoming</h2>
      {rows.length === 0 ? (
        <EmptyState title="Nothing upcoming">When a company's Split with you is approved, what you will receive and when shows here.</EmptyState>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="upcoming">
          {rows.map((row) => (
            <li key={row.rosterEntryId} className="spread" style={{ borderTop: '1px solid var(--line)', padding: '0.55rem 0', gap: '0.5rem' }}>
              <span>
                <strong>{row.smeCompanyName}</strong>
                <div className="small muted">
                  {row.status === 'PROCESSING' ? (
                    'On its way'
                  ) : row.paydayAt ? (
                    <>
                      Payday <Time iso={row.paydayAt} />
                    </>
                  ) : (
                    'Payday set once the Split is funded'
                  )}
                  {row.earlyPayoutElected ? ' · instant payout' : ''}
                </div>
              </span>
              <span style={{ textAlign: 'right' }}>
                {money(row.amountCents, row.currency)}
                {row.status === 'FAILED' ? (
                  <div>
                    <StatusBadge status="FAILED" />
                  </div>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
