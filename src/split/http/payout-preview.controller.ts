import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { PayoutPreviewQuery } from '../application/payout-preview';
import { DistributionAlreadyPaidOutError, DistributionNotFoundError, SplitNotFundedError } from '../domain/split-settlement.errors';
import { SplitNotFoundError } from '../domain/split.errors';

/** What "pay out now" would move (GET .../payout-preview): shown in the dashboard's confirmation before the payout. */
export class PayoutPreviewDto {
  @ApiProperty({ example: 'spl_mjmio48of2zpddic303ehv3nfd' }) splitId!: string;
  @ApiProperty({ example: 'dst_00mwvg57mefycf8eq3hogdzs40' }) distributionId!: string;
  @ApiProperty({ example: 'Dana Contractor', description: 'Who receives the transfer' }) contractorDisplayName!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '40000', description: "The row's amount, minor units" }) amountCents!: string;
  @ApiProperty({ example: '600', description: 'The early-payout fee (EARLY_PAYOUT_FEE_BPS of the amount, round half up)' }) feeAmountCents!: string;
  @ApiProperty({ example: '39400', description: "What reaches the contractor's service balance" }) netAmountCents!: string;
  @ApiProperty({ enum: ['contractor', 'sme'], description: "contractor: deducted from its share; sme: the row's businessCoversFee, paid on top by the SME" })
  feePaidBy!: 'contractor' | 'sme';
  @ApiProperty({ example: '0', description: 'Of a fee the SME covers, the part its held margin pays; the rest comes from its balance' }) feeFromMarginCents!: string;
}

@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/splits')
export class PayoutPreviewController {
  constructor(private readonly previews: PayoutPreviewQuery) {}

  @ApiData(PayoutPreviewDto)
  @ApiErrors(SplitNotFoundError, DistributionNotFoundError, SplitNotFundedError, DistributionAlreadyPaidOutError)
  @Get(':id/distributions/:distributionId/payout-preview')
  @ApiOperation({
    summary: "The SME's preview of paying one row out now: amount, fee, net and who pays the fee, decided as the payout would be; nothing moves (same errors as the payout)",
  })
  preview(@Param('id') id: string, @Param('distributionId') distributionId: string, @CurrentPrincipal() principal: Principal) {
    return this.previews.preview(principal.companyId, id, distributionId);
  }
}
