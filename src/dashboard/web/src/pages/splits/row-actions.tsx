import { useState } from 'react';
import { decimalToMinor, minorToDecimal } from '../../../../../platform/money/format-amount';
import { api, ApiError, data } from '../../api/client';
import type { Distribution, Split } from '../../api/types';
import { Badge, Button, Confirm, useAction } from '../../components/ui';
import { money, Time } from '../../lib/format';

/**
 * Issue 26 on the SME's Split page: take back all or part of a transferred row (the amount, and the fee
 * share with "give back the fee", previewed in the dialog and confirmed once), and act on a row that
 * failed for good (re-point it to another contractor, or take it back to the balance).
 */

/** What the row can still give back: its net transfer less earlier reversals. */
const reversibleOf = (row: Distribution) => BigInt(row.netAmountCents ?? '0') - BigInt(row.reversedAmountCents ?? '0');

/** The fee share a reversal gives back: proportional, rounded down, on the running total (as the server decides it). */
export function feeShareOf(row: Distribution, amountCents: bigint): bigint {
  const fee = BigInt(row.feeAmountCents ?? '0');
  const net = BigInt(row.netAmountCents ?? '0');
  if (fee === 0n || net === 0n) return 0n;
  const before = BigInt(row.reversedAmountCents ?? '0');
  return (fee * (before + amountCents)) / net - (fee * before) / net;
}

export const canReverse = (row: Distribution) => row.status === 'COMPLETED' && reversibleOf(row) > 0n;
export const failedForGood = (row: Distribution) => row.status === 'FAILED' && Boolean(row.finalFailureAt);

/** The reversed amount and the final failure, under the contractor's name. */
export function RowNotes({ row, currency }: { row: Distribution; currency: string }) {
  return (
    <>
      {row.reversedAmountCents && row.reversedAmountCents !== '0' ? (
        <div className="small muted" data-testid={`reversed-${row.id}`}>
          {money(row.reversedAmountCents, currency)} taken back
        </div>
      ) : null}
      {failedForGood(row) ? (
        <div className="small">
          <Badge tone="bad">Failed for good</Badge> <span className="muted">since</span> <Time iso={row.finalFailureAt} />
        </div>
      ) : null}
    </>
  );
}

export function RowActions({ split, row, onDone }: { split: Split; row: Distribution; onDone: (notice: string) => void }) {
  const [reversing, setReversing] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [refundFee, setRefundFee] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState('');
  const [repointing, setRepointing] = useState(false);
  const [contractorId, setContractorId] = useState('');
  const [takingBack, setTakingBack] = useState(false);
  const path = { id: split.id, distributionId: row.id };
  const who = row.contractorDisplayName;

  const reversible = reversibleOf(row);
  const amountCents = decimalToMinor(amount, split.currency);
  const cents = amountCents === null ? null : BigInt(amountCents);
  const amountProblem = cents === null || cents === 0n ? 'Enter an amount above zero.' : cents > reversible ? `At most ${money(reversible.toString(), split.currency)}.` : null;
  const feeBack = cents !== null && !amountProblem && refundFee ? feeShareOf(row, cents) : 0n;
  const reasonProblem = reason.trim() === '' ? 'Say why (the contractor and your history show it).' : null;

  const reverse = useAction(async () => {
    await data(
      api.POST('/api/commerce/integration/splits/{id}/distributions/{distributionId}/reversals', {
        params: { path },
        body: { amountCents: amountCents!, reason: reason.trim(), refundFee, idempotencyKey },
      }),
    );
    setReversing(false);
    onDone(`${money(amountCents, split.currency)} taken back from ${who}.`);
  });
  const repoint = useAction(async () => {
    const id = contractorId.trim();
    const body = id.startsWith('cpp_') ? { contractorPaymentProfileId: id } : { subVendorId: id };
    await data(api.POST('/api/commerce/integration/splits/{id}/distributions/{distributionId}/repoint', { params: { path }, body }));
    setRepointing(false);
    onDone(`The row is re-pointed; its transfer starts again.`);
  });
  const takeBack = useAction(async () => {
    await data(api.POST('/api/commerce/integration/splits/{id}/distributions/{distributionId}/take-back', { params: { path } }));
    setTakingBack(false);
    onDone(`${money(row.amountCents, split.currency)} is back in your balance.`);
  });
  const fieldError = reverse.error instanceof ApiError ? reverse.error.fieldErrors().amountCents : undefined;
  const repointError = repoint.error instanceof ApiError ? repoint.error.fieldErrors().contractor : undefined;

  return (
    <>
      {canReverse(row) ? (
        <Button
          small
          onClick={() => {
            reverse.setError(null);
            setAmount(minorToDecimal(reversible.toString(), split.currency));
            setReason('');
            setRefundFee(false);
            // One key per dialog: a double submit replays instead of reversing twice.
            setIdempotencyKey(`dashboard-${row.id}-${Date.now().toString(36)}`);
            setReversing(true);
          }}
          aria-label={`Reverse ${who}'s transfer`}
        >
          Reverse
        </Button>
      ) : null}
      {failedForGood(row) ? (
        <span className="row" style={{ gap: '0.35rem', justifyContent: 'flex-end' }}>
          <Button small onClick={() => (repoint.setError(null), setContractorId(''), setRepointing(true))} aria-label={`Re-point ${who}'s row`}>
            Re-point
          </Button>
          <Button small onClick={() => (takeBack.setError(null), setTakingBack(true))} aria-label={`Take ${who}'s row back`}>
            Take back
          </Button>
        </span>
      ) : null}

      {/* The dialogs open from a table cell: they take the page's alignment and wrapping, not the cell's. */}
      <div style={{ textAlign: 'left', whiteSpace: 'normal' }}>
        <Confirm
          open={reversing}
          title={`Reverse ${who}'s transfer`}
          body={`${who} received ${money(row.netAmountCents, split.currency)}; up to ${money(reversible.toString(), split.currency)} can still come back to your balance.`}
          confirmLabel={amountProblem || reasonProblem ? 'Reverse' : `Reverse ${money(((cents ?? 0n) + feeBack).toString(), split.currency)}`}
          busy={reverse.busy}
          error={fieldError ? null : reverse.error}
          onConfirm={() => !amountProblem && !reasonProblem && void reverse.run()}
          onCancel={() => setReversing(false)}
        >
          <div className="field" style={{ marginTop: '1rem' }}>
            <label htmlFor={`reverse-amount-${row.id}`}>Amount to take back ({split.currency})</label>
            <input
              id={`reverse-amount-${row.id}`}
              type="text"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={Boolean(amountProblem ?? fieldError)}
              aria-describedby={`reverse-amount-hint-${row.id}`}
            />
            <div className={(amountProblem ?? fieldError) ? 'field-error' : 'hint'} id={`reverse-amount-hint-${row.id}`}>
              {amountProblem ?? fieldError ?? `At most ${money(reversible.toString(), split.currency)}.`}
            </div>
          </div>
          <div className="field">
            <label htmlFor={`reverse-reason-${row.id}`}>Reason</label>
            <input
              id={`reverse-reason-${row.id}`}
              type="text"
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={Boolean(reasonProblem)}
              aria-describedby={`reverse-reason-hint-${row.id}`}
            />
            <div className="hint" id={`reverse-reason-hint-${row.id}`}>
              {reasonProblem ?? 'Shown to the contractor with the reversal.'}
            </div>
          </div>
          {row.feeAmountCents && row.feeAmountCents !== '0' ? (
            <label className="row" style={{ gap: '0.5rem', flexWrap: 'nowrap', alignItems: 'flex-start', fontWeight: 'normal' }}>
              <input type="checkbox" checked={refundFee} onChange={(e) => setRefundFee(e.target.checked)} />
              Also give back the early-payout fee ({money(row.feeAmountCents, split.currency)}) in proportion
            </label>
          ) : null}
          <p className="small" role="status" data-testid="reversal-preview" style={{ marginBottom: 0 }}>
            {amountProblem
              ? ' '
              : `${who} gives back ${money(amountCents, split.currency)}${feeBack > 0n ? ` and the fee ${money(feeBack.toString(), split.currency)}` : ''}: ${money(((cents ?? 0n) + feeBack).toString(), split.currency)} to your balance. What ${who} already withdrew, it owes and repays from its next payments.`}
          </p>
        </Confirm>

        <Confirm
          open={repointing}
          title={`Re-point ${who}'s row`}
          body={`Its transfer of ${money(row.amountCents, split.currency)} kept failing. Pay it to another contractor you know instead; the transfer starts again at once.`}
          confirmLabel="Re-point and pay"
          danger={false}
          busy={repoint.busy}
          error={repointError ? null : repoint.error}
          onConfirm={() => contractorId.trim() !== '' && void repoint.run()}
          onCancel={() => setRepointing(false)}
        >
          <div className="field" style={{ marginTop: '1rem' }}>
            <label htmlFor={`repoint-${row.id}`}>Contractor id</label>
            <input
              id={`repoint-${row.id}`}
              type="text"
              value={contractorId}
              onChange={(e) => setContractorId(e.target.value)}
              placeholder="sv_… or cpp_…"
              aria-invalid={Boolean(repointError)}
              aria-describedby={`repoint-hint-${row.id}`}
            />
            <div className={repointError ? 'field-error' : 'hint'} id={`repoint-hint-${row.id}`}>
              {repointError ?? 'A vendor of your roster (sv_…) or a creator payment profile (cpp_…) not already on this Split.'}
            </div>
          </div>
        </Confirm>

        <Confirm
          open={takingBack}
          title={`Take ${who}'s row back?`}
          body={`${money(row.amountCents, split.currency)} stays in your balance and is no longer owed to anyone. The Split settles once every other row is paid.`}
          confirmLabel={`Take back ${money(row.amountCents, split.currency)}`}
          busy={takeBack.busy}
          error={takeBack.error}
          onConfirm={() => void takeBack.run()}
          onCancel={() => setTakingBack(false)}
        />
      </div>
    </>
  );
}
