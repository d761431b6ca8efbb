import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { CheckoutBalanceDoc, LEDGER_CHECKOUT_BALANCES, LEDGER_CHECKOUT_POSTINGS } from '../projections/checkout-ledger.projection';
import { accounts, CheckoutPosting } from '../domain/posting';
import { companyBalancesAsOf } from './books.query';
import { CompanyBalanceDoc, LEDGER_COMPANY_BALANCES } from '../projections/ledger.projection';

/** One currency of GET /api/commerce/balance. */
export interface BalanceView {
  currency: string;
  /** What the company may spend or reserve: company_balance:<co> less what it owes contractors. */
  availableCents: string;
  /** payout_reserve:<co>: held for Payout Embed sessions until they are paid or released. */
  reservedCents: string;
  /** Roster sums of funded Splits not yet transferred to their contractors: in company_balance, but not the company's to spend. */
  owedToContractorsCents: string;
  /** sme_margin_hold:<co>: declared Split margins held until net terms (or an instant release). */
  marginHeldCents: string;
  /** sme_fee_reserve:<co>: set aside for the early-payout fees the SME covers on its Splits, until each row's transfer pays them (issue 23). */
  reservedForFeesCents: string;
  /**
   * merchant_balance:<co> (issue 26): the merchant's checkout money not paid out yet; negative while refunds of
   * money already paid out are owed back (the next checkout payouts net it first).
   */
  checkoutBalanceCents: string;
  /** merchant_payout_in_transit:<co>: checkout payouts on their way to the merchant. */
  checkoutPayoutsInTransitCents: string;
  /** merchant_paid_out:<co>: what checkout payouts delivered, ever. */
  checkoutPaidOutCents: string;
}

@Injectable()
export class CompanyBalanceQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  /**
   * The company's balances per currency (its Split and balance money, and its checkout money), as the
   * ledger holds them, or held them at `asOf` (an ISO UTC time), ordered by currency.
   */
  async balances(companyId: string, asOf?: string): Promise<BalanceView[]> {
    const byCurrency = { filter: { companyId }, sort: [{ field: 'currency', direction: 'asc' as const }] };
    const [docs, checkout] = await Promise.all([
      asOf === undefined ? this.store.find<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, byCurrency) : companyBalancesAsOf(this.store, companyId, asOf),
      asOf === undefined ? this.store.find<CheckoutBalanceDoc>(LEDGER_CHECKOUT_BALANCES, byCurrency) : this.checkoutBalancesAsOf(companyId, asOf),
    ]);
    const currencies = [...new Set([...docs.map((d) => d.currency), ...checkout.map((d) => d.currency)])].sort();
    return currencies.map((currency) => {
      const d = docs.find((doc) => doc.currency === currency);
      const c = checkout.find((doc) => doc.currency === currency);
      const owed = BigInt(d?.committedCents ?? '0');
      return {
        currency,
        availableCents: (BigInt(d?.balanceCents ?? '0') - owed).toString(),
        reservedCents: d?.reservedCents ?? '0',
        owedToContractorsCents: owed.toString(),
        marginHeldCents: d?.marginHeldCents ?? '0',
        reservedForFeesCents: d?.feeReservedCents ?? '0',
        checkoutBalanceCents: c?.balanceCents ?? '0',
        checkoutPayoutsInTransitCents: c?.inTransitCents ?? '0',
        checkoutPaidOutCents: c?.paidOutCents ?? '0',
      };
    });
  }

  /** The merchant's checkout accounts at `asOf`: its checkout postings up to then, summed (credit-positive). */
  private async checkoutBalancesAsOf(companyId: string, asOf: string): Promise<Pick<CheckoutBalanceDoc, 'currency' | 'balanceCents' | 'inTransitCents' | 'paidOutCents'>[]> {
    const postings = await this.store.find<CheckoutPosting>(LEDGER_CHECKOUT_POSTINGS, { filter: { companyId } });
    const sums = new Map<string, Record<string, bigint>>();
    for (const posting of postings) {
      if (posting.postedAt > asOf) continue;
      const byAccount = sums.get(posting.currency) ?? {};
      sums.set(posting.currency, byAccount);
      for (const entry of posting.entries) byAccount[entry.account] = (byAccount[entry.account] ?? 0n) + BigInt(entry.credit) - BigInt(entry.debit);
    }
    return [...sums].map(([currency, byAccount]) => ({
      currency,
      balanceCents: (byAccount[accounts.merchantBalance(companyId)] ?? 0n).toString(),
      inTransitCents: (byAccount[accounts.merchantPayoutInTransit(companyId)] ?? 0n).toString(),
      paidOutCents: (byAccount[accounts.merchantPaidOut(companyId)] ?? 0n).toString(),
    }));
  }
}
