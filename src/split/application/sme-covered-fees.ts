import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandBus } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { formatCents } from '../../platform/money/money';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { coveredFeeCover } from '../domain/covered-fees';
import { splitDecider } from '../domain/split.decider';
import { SplitEvent } from '../domain/split.events';
import { ExistingSplit, SplitState, splitExists } from '../domain/split.state';

/**
 * Set aside from the SME's available balance `requiredCents` in all for the fees it covers on a Split
 * (docs/money.md#fees-the-sme-covers). The company balance is Payout Embed's stream, so payout-embed
 * handles this command (the Split module names it and never imports payout-embed); a balance that
 * cannot cover it is 422 SME_FEE_NOT_COVERED with nothing set aside.
 */
export class SetAsideSmeCoveredFeesMessage extends Command<void> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly currency: string,
    readonly requiredCents: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** What a Split decision about covered fees needs of the SME's balance, set aside before the decision is appended. */
@Injectable()
export class SmeCoveredFees {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `events`: what a command decided on `state` and is about to append. Sets aside what the Split then
   * needs from the balance (it only ever grows while the Split is open), or throws 422 before anything
   * of the decision is written. The append that follows must be decided on this same state (or, for a
   * roster, on any pending state: its needs do not depend on what came before).
   */
  async setAsideFor(state: SplitState, events: SplitEvent[], context: CommandContext): Promise<void> {
    const next = splitAfter(state, events);
    const fromBalanceCents = next === null ? 0n : this.requiredOf(next);
    if (next === null || fromBalanceCents === 0n) return;
    await this.commands.execute(new SetAsideSmeCoveredFeesMessage(next.smeCompanyId, next.splitId, next.currency, formatCents(fromBalanceCents), context));
  }

  /** What setAsideFor would set aside in all for the Split `events` lead to (0 when nothing). */
  requiredFor(state: SplitState, events: SplitEvent[]): bigint {
    const next = splitAfter(state, events);
    return next === null ? 0n : this.requiredOf(next);
  }

  private requiredOf(split: ExistingSplit): bigint {
    return coveredFeeCover(split, this.config.earlyPayoutFeeBps).fromBalanceCents;
  }
}

/** The Split a decision leads to, or null when there is none. */
function splitAfter(state: SplitState, events: SplitEvent[]): ExistingSplit | null {
  const next = events.reduce((folded, event) => splitDecider.evolve(folded, event), state);
  return splitExists(next) ? next : null;
}
