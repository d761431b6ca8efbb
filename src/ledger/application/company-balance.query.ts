import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
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
}

@Injectable()
export class CompanyBalanceQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  /** The company's balances per currency, as the ledger holds them (or held them at `asOf`, an ISO UTC time), ordered by currency. */
  async balances(companyId: string, asOf?: string): Promise<BalanceView[]> {
    const docs =
      asOf === undefined
        ? await this.store.find<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, { filter: { companyId }, sort: [{ field: 'currency', direction: 'asc' }] })
        : await companyBalancesAsOf(this.store, companyId, asOf);
    return docs.map((d) => {
      const owed = BigInt(d.committedCents ?? '0');
      return {
        currency: d.currency,
        availableCents: (BigInt(d.balanceCents) - owed).toString(),
        reservedCents: d.reservedCents,
        owedToContractorsCents: owed.toString(),
        marginHeldCents: d.marginHeldCents ?? '0',
        reservedForFeesCents: d.feeReservedCents ?? '0',
      };
    });
  }
}
