import { SavedCard } from './checkout.events';

/**
 * Sandbox (issue 26, docs/checkout.md#sandbox-cards): orders paid with the card 4000 0000 0000 0333
 * (SANDBOX_CARDS.PAYOUT_FAILS; only brand and last four digits are kept, so those name it) get a merchant
 * payout the sandbox rail refuses. The payout's destination says so the way every sandbox rail failure is
 * asked for (docs/money.md#failures): it carries `+fail-always`.
 */
export const PAYOUT_FAILS_CARD = { brand: 'visa', last4: '0333' } as const;

/** Where a PAID order's money goes on the rail: the merchant company, marked to fail for the sandbox card above. */
export function merchantPayoutDestination(merchantCompanyId: string, card: SavedCard | null): string {
  const failing = card?.brand === PAYOUT_FAILS_CARD.brand && card.last4 === PAYOUT_FAILS_CARD.last4;
  return failing ? `${merchantCompanyId}+fail-always` : merchantCompanyId;
}
