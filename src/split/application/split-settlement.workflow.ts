import { formatCents } from '../../platform/money/money';
import { NO_REACTION, Reaction, Workflow, workflowContext, WorkflowInput } from '../../platform/workflows/workflow';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { PAYOUT_STREAM_PREFIX, PayoutEvent, RequestPayoutMessage } from '../../payouts';
import { nextTransferAttemptAt, netTermsMaturity, withdrawalPayoutId } from '../domain/row-transfer-schedule';
import { splitDecider } from '../domain/split.decider';
import { SPLIT_STREAM_PREFIX, SplitEvent, splitStreamId } from '../domain/split.events';
import { ExistingSplit, SplitState, splitExists } from '../domain/split.state';
import { CompleteRowTransferMessage } from './complete-row-transfer.handler';
import { FailRowTransferMessage } from './fail-row-transfer.handler';
import { FundSplitMessage } from './fund-split.handler';
import { ReleaseMarginAtNetTermsMessage } from './release-margin-at-net-terms.handler';
import { marginReleaseTimer, rowTransferTimer } from './split-settlement.timers';
import { StartRowTransferMessage } from './start-row-transfer.handler';
import { StartInstantTransfersMessage } from './start-instant-transfers.handler';

const ACTOR = 'system:split-settlement';
const SPLIT_EVENTS = new Set([
  'split.leg_a.approved',
  'split.funded',
  'split.roster_entry.transfer_started',
  'split.roster_entry.withdrawal_started',
  'split.roster_entry.repointed',
]);
const SPLIT_PAYOUT_KINDS = new Set(['leg_a', 'leg_b_transfer']);

type Handled = SplitEvent | PayoutEvent;

/**
 * The Split's money lifecycle: approved -> leg A payout -> funded -> row transfers (instant rows now,
 * the others and the held margin at net terms) -> settled, with failed transfers retried on the Split
 * domain's schedule and settled rows auto-withdrawn to the contractor's wallet.
 */
export const splitSettlementWorkflow: Workflow<SplitState> = {
  name: 'split_settlement',
  streams: [SPLIT_STREAM_PREFIX, PAYOUT_STREAM_PREFIX],
  timers: [rowTransferTimer, marginReleaseTimer],
  handles: (event) =>
    SPLIT_EVENTS.has(event.type) || ((event.type === 'payout.completed' || event.type === 'payout.failed') && SPLIT_PAYOUT_KINDS.has((event.data as { kind?: string }).kind ?? '')),
  // One Split's events in order; different Splits' at once (their commands touch different streams).
  partitionOf: (event) => splitIdOf({ kind: 'event', event, now: '' }),
  async load(input, reader) {
    const { state } = await reader.load(splitStreamId(splitIdOf(input)), splitDecider);
    return state;
  },
  react(input, state) {
    if (!splitExists(state)) return NO_REACTION;
    const context = workflowContext(ACTOR, input);
    if (input.kind === 'timer') {
      if (input.timer.kind === marginReleaseTimer.kind) return commands(new ReleaseMarginAtNetTermsMessage(state.splitId, context));
      const { distributionId, instant } = rowTransferTimer.payloadOf(input.timer);
      if (rowSettled(state, distributionId)) return NO_REACTION;
      return commands(new StartRowTransferMessage(state.splitId, distributionId, instant, context));
    }
    const event = eventOf(input.event);
    switch (event.type) {
      case 'split.leg_a.approved':
        return commands(
          new RequestPayoutMessage(
            {
              payoutId: state.legAPayoutId,
              kind: 'leg_a',
              splitId: state.splitId,
              distributionId: null,
              amountCents: formatCents(state.totalAmountCents + state.enterpriseFeeAmountCents),
              currency: state.currency,
              destination: null,
              attempt: 1,
            },
            context,
          ),
        );
      case 'split.funded':
        return afterFunding(state, event.data.fundedAt, context);
      case 'split.roster_entry.repointed': {
        // Issue 26: a row failed for good, now pointed at another contractor: its transfer starts again (the next attempt, same fee terms).
        const row = state.rows.get(event.data.rosterEntryId);
        return commands(new StartRowTransferMessage(state.splitId, event.data.rosterEntryId, row?.instant ?? false, context));
      }
      case 'split.roster_entry.transfer_started': {
        const { payoutId, splitId, rosterEntryId, netAmountCents, destination, attempt } = event.data;
        return commands(
          new RequestPayoutMessage(
            { payoutId, kind: 'leg_b_transfer', splitId, distributionId: rosterEntryId, amountCents: netAmountCents, currency: state.currency, destination, attempt },
            context,
          ),
        );
      }
      case 'split.roster_entry.withdrawal_started': {
        const { payoutId, splitId, rosterEntryId, amountCents, walletEmail } = event.data;
        return commands(
          new RequestPayoutMessage(
            { payoutId, kind: 'leg_b_withdrawal', splitId, distributionId: rosterEntryId, amountCents, currency: state.currency, destination: walletEmail, attempt: 1 },
            context,
          ),
        );
      }
      case 'payout.completed': {
        const ref = event.data;
        if (ref.kind === 'leg_a') return commands(new FundSplitMessage(state.splitId, context));
        if (ref.kind !== 'leg_b_transfer') return NO_REACTION;
        const { distributionId, payoutId } = ref;
        // Issue 29: a SubVendor row that auto-withdraws goes to its contractor's own verified wallet as it is when paid.
        const row = state.distributions.find((d) => d.id === distributionId);
        const autoWithdrawSubVendorId = row?.autoWithdrawElected && row.subVendorId ? row.subVendorId : null;
        return commands(
          new CompleteRowTransferMessage(state.splitId, distributionId, payoutId, withdrawalPayoutId(state.splitId, distributionId), context, autoWithdrawSubVendorId),
        );
      }
      case 'payout.failed': {
        const ref = event.data;
        if (ref.kind !== 'leg_b_transfer') return NO_REACTION;
        const { distributionId, payoutId, reason } = ref;
        const row = state.rows.get(distributionId);
        const attempt = row?.attempt ?? 1;
        const nextAttemptAt = nextTransferAttemptAt(attempt, input.now);
        return {
          commands: [new FailRowTransferMessage(state.splitId, distributionId, payoutId, reason, nextAttemptAt, context)],
          timers: [rowTransferTimer.at(nextAttemptAt, { splitId: state.splitId, distributionId, instant: row?.instant ?? false, attempt: attempt + 1 })],
        };
      }
      default:
        return NO_REACTION;
    }
  },
};

function afterFunding(state: ExistingSplit, fundedAt: string, context: ReturnType<typeof workflowContext>): Reaction {
  const maturity = netTermsMaturity(fundedAt, state.enterpriseNetTermsDays);
  const reaction: Reaction = { commands: [], timers: [] };
  // Replayed after rows were paid (on demand, or the Split already SETTLED): those rows need nothing more.
  const unpaid = state.distributions.filter((row) => !rowSettled(state, row.id));
  const instant = unpaid.filter((row) => row.earlyPayoutElected).map((row) => row.id);
  if (instant.length > 0) reaction.commands.push(new StartInstantTransfersMessage(state.splitId, instant, context));
  for (const row of unpaid) {
    if (!row.earlyPayoutElected) reaction.timers.push(rowTransferTimer.at(maturity, { splitId: state.splitId, distributionId: row.id, instant: false, attempt: 1 }));
  }
  if (state.marginStatus === 'HELD') reaction.timers.push(marginReleaseTimer.at(maturity, { splitId: state.splitId }));
  return reaction;
}

/** The row's transfer completed: a timer or a replayed event for it has nothing left to do (issue 23). */
function rowSettled(state: ExistingSplit, distributionId: string): boolean {
  return state.rows.get(distributionId)?.settled === true;
}

function splitIdOf(input: WorkflowInput): string {
  if (input.kind === 'timer') return (input.timer.payload as { splitId: string }).splitId;
  return (input.event.data as { splitId: string }).splitId;
}

const eventOf = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as Handled;
const commands = (...list: Reaction['commands']): Reaction => ({ commands: list, timers: [] });
