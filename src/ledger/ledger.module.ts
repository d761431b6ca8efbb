import { Module } from '@nestjs/common';
import { SplitModule } from '../split';
import { SplitLedgerQuery } from './application/split-ledger.query';
import { SplitLedgerController } from './http/split-ledger.controller';
import { LedgerProjection } from './projections/ledger.projection';

/** The ledger: its projection and its HTTP surface. Ledger depends on split (its events, its ownership check), never the reverse. */
@Module({
  imports: [SplitModule],
  controllers: [SplitLedgerController],
  providers: [SplitLedgerQuery, LedgerProjection],
})
export class LedgerModule {}
