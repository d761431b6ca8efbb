import { Cents, sumCents } from '../../platform/money/money';
import { rowFee } from './split-settlement';
import { ExistingSplit } from './split.state';

/** Where the early-payout fees a Split's SME covers come from (docs/money.md#fees-the-sme-covers). */
export interface CoveredFeeCover {
  /** Every fee the SME covers: rows elected for an early payout, and rows it paid out on demand. */
  coveredCents: Cents;
  /** The part the margin pays (what it set aside already, and what it still can while pending or held). */
  fromMarginCents: Cents;
  /** The rest: set aside from the SME's available balance before the election is recorded. */
  fromBalanceCents: Cents;
}

const NONE: CoveredFeeCover = { coveredCents: 0n, fromMarginCents: 0n, fromBalanceCents: 0n };

/**
 * The fees the SME covers on this Split and how they are paid: the margin first (while it is pending or
 * held, up to all of it), the SME's own balance for the rest. A rejected or cancelled Split covers
 * nothing; a Split created before issue 23 draws nothing from the balance (its fees were recovered from
 * the margin only). Pure: decided again on the state a command would lead to, so a handler knows what to
 * set aside before the command is appended.
 */
export function coveredFeeCover(split: ExistingSplit, earlyPayoutFeeBps: number): CoveredFeeCover {
  if (!split.smeCoveredFeesDrawn || split.status === 'REJECTED' || split.status === 'CANCELLED') return NONE;
  const instant = (id: string, early: boolean) => early || (split.rows.get(id)?.instant ?? false);
  const covered = sumCents(
    split.distributions.filter((row) => row.businessCoversFee && instant(row.id, row.earlyPayoutElected)).map((row) => rowFee(row, true, earlyPayoutFeeBps).fee),
  );
  const marginOpen = split.marginStatus === 'PENDING' || split.marginStatus === 'HELD';
  const room = marginOpen ? split.marginAmountCents - split.marginFeeCoverCents : 0n;
  const notYetFromMargin = covered - split.marginFeeCoverCents;
  const fromMargin = split.marginFeeCoverCents + (notYetFromMargin < room ? notYetFromMargin : room);
  return { coveredCents: covered, fromMarginCents: fromMargin, fromBalanceCents: covered - fromMargin };
}
