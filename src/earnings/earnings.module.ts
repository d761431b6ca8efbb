import { Module } from '@nestjs/common';
import { ContractorWithdrawalsProcessManager } from './application/contractor-withdrawals.process-manager';
import { EarningsQuery } from './application/earnings.query';
import { RequestWithdrawalHandler } from './application/request-withdrawal.handler';
import { SettleWithdrawalHandler } from './application/settle-withdrawal.handler';
import { EarningsController } from './http/earnings.controller';
import { EarningsBooksController } from './http/earnings-books.controller';

/** Earnings: a contractor's service balance (from the ledger) and its withdrawals to its wallet. */
@Module({
  controllers: [EarningsController, EarningsBooksController],
  providers: [EarningsQuery, RequestWithdrawalHandler, SettleWithdrawalHandler, ContractorWithdrawalsProcessManager],
})
export class EarningsModule {}
