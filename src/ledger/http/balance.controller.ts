import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AnyApiKeyOrSessionAuth, CurrentPrincipal, type Principal } from '../../identity';
import { BalanceView, CompanyBalanceQuery } from '../application/company-balance.query';

class BalanceViewDto implements BalanceView {
  @ApiProperty({ example: 'USD' })
  currency!: string;
  @ApiProperty({
    example: '150000',
    description: 'Minor units free to spend or reserve: ledger account company_balance:<companyId> less owedToContractorsCents (what a Payout Embed session can reserve)',
  })
  availableCents!: string;
  @ApiProperty({ example: '2500', description: 'Minor units reserved for Payout Embed sessions not yet paid or released (payout_reserve:<companyId>)' })
  reservedCents!: string;
  @ApiProperty({ example: '40000', description: 'Roster sums of funded Splits not yet transferred to their contractors: held in company_balance, not spendable' })
  owedToContractorsCents!: string;
  @ApiProperty({ example: '5000', description: 'Minor units of Split margins held until net terms or an instant release (sme_margin_hold:<companyId>)' })
  marginHeldCents!: string;
  @ApiProperty({
    example: '15000',
    description:
      'Minor units set aside for the early-payout fees the SME covers on its Splits (from availableCents when elected, or from a margin), paid out with each row transfer (sme_fee_reserve:<companyId>)',
  })
  reservedForFeesCents!: string;
  @ApiProperty({
    example: '-1000',
    description:
      'Checkout money of the merchant not paid out yet (merchant_balance:<companyId>, issue 26): negative while refunds of money already paid out are owed back; the next checkout payouts net it first',
  })
  checkoutBalanceCents!: string;
  @ApiProperty({ example: '0', description: 'Checkout payouts on their way to the merchant (merchant_payout_in_transit:<companyId>)' })
  checkoutPayoutsInTransitCents!: string;
  @ApiProperty({ example: '25000', description: 'What checkout payouts delivered to the merchant, ever (merchant_paid_out:<companyId>)' })
  checkoutPaidOutCents!: string;
}

class BalanceResponseDto {
  @ApiProperty({ type: [BalanceViewDto] })
  data!: BalanceViewDto[];
}

@ApiTags('balance')
@ApiBearerAuth()
@Controller('api/commerce/balance')
export class BalanceController {
  constructor(private readonly balances: CompanyBalanceQuery) {}

  @Get()
  @AnyApiKeyOrSessionAuth()
  @ApiOperation({
    summary:
      "The caller's company balance per currency: available, reserved, margin held and set aside for covered fees, and its checkout balance, payouts in transit and paid out (API key of any scope, or session)",
  })
  @ApiOkResponse({ type: BalanceResponseDto })
  balance(@CurrentPrincipal() principal: Principal): Promise<BalanceView[]> {
    return this.balances.balances(principal.companyId);
  }
}
