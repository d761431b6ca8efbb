import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { assertRowCanPayOutNow } from '../domain/split-settlement';
import { splitDecider } from '../domain/split.decider';
import { splitExists } from '../domain/split.state';
import { SplitStream } from './split-stream';

/** What paying one row out now would move, before anything moves (docs/api.md#preview-a-payout-now). */
export interface PayoutPreview {
  splitId: string;
  distributionId: string;
  contractorDisplayName: string;
  currency: string;
  amountCents: string;
  feeAmountCents: string;
  netAmountCents: string;
  /** Who pays the fee: the contractor (deducted from its share) or the SME (on top, margin first, then balance). */
  feePaidBy: 'contractor' | 'sme';
  /** Of a fee the SME covers: what the held margin pays; the rest is drawn from the SME's balance. */
  feeFromMarginCents: string;
}

/**
 * The SME's preview of "pay out now": the same decision the payout makes (the decider, on the Split as it
 * stands), without appending it. The same errors as the payout itself (404, 409 not funded or already paid out).
 */
@Injectable()
export class PayoutPreviewQuery {
  constructor(
    private readonly split: SplitStream,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async preview(smeCompanyId: string, splitId: string, distributionId: string): Promise<PayoutPreview> {
    const { state } = await this.split.load(splitId);
    assertRowCanPayOutNow(state, distributionId, smeCompanyId);
    const [started] = splitDecider.decide(
      {
        type: 'StartRowTransfer',
        data: {
          splitId,
          distributionId,
          instant: true,
          onDemand: true,
          earlyPayoutFeeBps: this.config.earlyPayoutFeeBps,
        },
        metadata: this.split.metadata({ actor: 'payout-preview' }), // a preview: nothing it decides is appended
      },
      state,
    );
    if (started?.type !== 'split.roster_entry.transfer_started' || !splitExists(state)) throw new Error(`pay-out-now decided no transfer for ${splitId}/${distributionId}`);
    const row = state.distributions.find((d) => d.id === distributionId)!;
    return {
      splitId,
      distributionId,
      contractorDisplayName: row.contractorDisplayName,
      currency: state.currency,
      amountCents: started.data.amountCents,
      feeAmountCents: started.data.feeAmountCents,
      netAmountCents: started.data.netAmountCents,
      feePaidBy: started.data.businessCoversFee ? 'sme' : 'contractor',
      feeFromMarginCents: started.data.feeCoverFromMarginCents ?? '0',
    };
  }
}
