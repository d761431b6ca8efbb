import { Module } from '@nestjs/common';
import { SplitModule } from '../split';
import { CompanyBalanceQuery } from './application/company-balance.query';
import { SplitLedgerQuery } from './application/split-ledger.query';
import { BalanceController } from './http/balance.controller';
import { BooksController } from './http/books.controller';
import { BooksQuery } from './application/books.query.service';
import { SessionSplitLedgerController } from './http/session-split-ledger.controller';
import { SplitLedgerController } from './http/split-ledger.controller';
import { LedgerProjection } from './projections/ledger.projection';
import { CheckoutLedgerProjection } from './projections/checkout-ledger.projection';
import { CheckoutBooksProjection } from './projections/checkout-books.projection';

/** The ledger: its projection and its HTTP surface. Ledger depends on split (its events, its ownership check), never the reverse. */
@Module({
  imports: [SplitModule],
  controllers: [SplitLedgerController, SessionSplitLedgerController, BalanceController, BooksController],
  providers: [SplitLedgerQuery, CompanyBalanceQuery, LedgerProjection, CheckoutLedgerProjection, CheckoutBooksProjection, BooksQuery],
  exports: [BooksQuery],
})
export class LedgerModule {}
