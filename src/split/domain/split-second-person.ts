import { CommandMetadata } from '../../platform/domain/command';
import { parseCents } from '../../platform/money/money';
import { ConfirmSecondPerson, RequestSecondPerson } from './split.commands';
import { SplitNothingToConfirmError, SplitSelfApprovalError } from './split-second-person.errors';
import { assertRowCanPayOutNow, settleMargin } from './split-settlement';
import { SecondPersonAction, SplitEvent, SplitSecondPersonEvent } from './split.events';
import { ExistingSplit, SecondPersonRequest, SplitState, splitExists } from './split.state';
import { SplitNotFoundError } from './split.errors';

/**
 * Issue 30, the SME-side two-person rule (DESIGN 15 "Agreement"): above the SME's own threshold (its default
 * approval policy asking for two approvals), a pay-out-now or an instant margin release is first asked for
 * (split.second_person.requested) and moves money only when a second member confirms it
 * (split.second_person.confirmed, appended with the money's own events). The one who asked cannot confirm.
 */

/** What the action moves: the row's amount, or the margin. */
export function secondPersonAmount(state: ExistingSplit, action: SecondPersonAction, rosterEntryId: string | null): bigint {
  if (action === 'settle_margin') return state.marginAmountCents;
  return parseCents(state.distributions.find((d) => d.id === rosterEntryId)?.amountCents ?? '0');
}

/** Whether the action needs a second member: a threshold is set and the amount is above it. */
export const needsSecondPerson = (state: SplitState, action: SecondPersonAction, rosterEntryId: string | null, aboveAmountCents: string | null): boolean =>
  aboveAmountCents !== null && splitExists(state) && secondPersonAmount(state, action, rosterEntryId) > parseCents(aboveAmountCents);

export const pendingSecondPerson = (state: SplitState, action: SecondPersonAction, rosterEntryId: string | null): SecondPersonRequest | null =>
  (splitExists(state) && state.secondPersonRequests?.find((r) => r.action === action && r.rosterEntryId === rosterEntryId)) || null;

/** Asks for the action; it must be possible now (the same refusals as doing it). A second ask while one waits decides nothing. */
export function requestSecondPerson(data: RequestSecondPerson['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state) || state.smeCompanyId !== data.smeCompanyId) throw new SplitNotFoundError();
  const rosterEntryId = data.action === 'pay_out_now' ? data.distributionId : null;
  if (data.action === 'pay_out_now') assertRowCanPayOutNow(state, data.distributionId ?? '', data.smeCompanyId);
  else settleMargin({ splitId: data.splitId, smeCompanyId: data.smeCompanyId }, state, meta);
  if (pendingSecondPerson(state, data.action, rosterEntryId)) return [];
  const amountCents = secondPersonAmount(state, data.action, rosterEntryId).toString();
  return [
    {
      type: 'split.second_person.requested',
      data: {
        splitId: state.splitId,
        action: data.action,
        rosterEntryId,
        amountCents,
        aboveAmountCents: data.aboveAmountCents,
        requestedBy: meta.actor,
        requestedAt: meta.now,
      },
    },
  ];
}

/** A second member confirms what waits; the handler appends the money's own events after this one, in the same append. */
export function confirmSecondPerson(data: ConfirmSecondPerson['data'], state: SplitState, meta: CommandMetadata): SplitEvent[] {
  if (!splitExists(state) || state.smeCompanyId !== data.smeCompanyId) throw new SplitNotFoundError();
  const rosterEntryId = data.action === 'pay_out_now' ? data.distributionId : null;
  const pending = pendingSecondPerson(state, data.action, rosterEntryId);
  if (!pending) throw new SplitNothingToConfirmError(data.action === 'pay_out_now' ? 'pay-out-now' : 'margin release');
  if (pending.requestedBy === meta.actor) throw new SplitSelfApprovalError();
  return [
    {
      type: 'split.second_person.confirmed',
      data: { splitId: state.splitId, action: data.action, rosterEntryId, requestedBy: pending.requestedBy, confirmedBy: meta.actor, confirmedAt: meta.now },
    },
  ];
}

/** A confirmed request, and one whose row started its transfer or whose margin was released another way, waits no more. */
export function evolveSecondPerson(state: ExistingSplit, event: SplitSecondPersonEvent | SplitEvent): ExistingSplit {
  const requests = state.secondPersonRequests ?? [];
  const without = (action: SecondPersonAction, rosterEntryId: string | null) => {
    const left = requests.filter((r) => !(r.action === action && r.rosterEntryId === rosterEntryId));
    return left.length === requests.length ? state : { ...state, secondPersonRequests: left };
  };
  switch (event.type) {
    case 'split.second_person.requested': {
      const { splitId: _splitId, ...request } = event.data;
      return { ...state, secondPersonRequests: [...requests, request] };
    }
    case 'split.second_person.confirmed':
      return without(event.data.action, event.data.rosterEntryId);
    case 'split.roster_entry.transfer_started':
      return without('pay_out_now', event.data.rosterEntryId);
    case 'split.margin.settled':
    case 'split.margin.instant_elected':
      return without('settle_margin', null);
    default:
      return state;
  }
}
