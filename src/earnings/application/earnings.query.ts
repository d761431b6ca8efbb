import { Inject, Injectable } from '@nestjs/common';
import { company } from '../../identity';
import { contractorCredits, contractorReversals, owedByCurrency, withdrawableByAccount } from '../../ledger';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { availableByAccount, contractorWithdrawalsDecider, Wallet } from '../domain/contractor-withdrawals.decider';
import { contractorWithdrawalsStreamId } from '../domain/contractor-withdrawals.events';
import { contractorAccountsOf } from './contractor-accounts';
import { WithdrawalView } from './request-withdrawal.handler';

export interface EarningsView {
  /** Per currency: what the person may withdraw now (the same rule POST /me/withdrawals applies). */
  balances: { currency: string; availableCents: string; owedCents: string }[];
  /** Row transfers received, newest first (at most 100). */
  transfers: { id: string; splitId: string; rosterEntryId: string; amountCents: string; currency: string; occurredAt: string; smeCompanyName: string }[];
  /** Withdrawals, newest first. */
  withdrawals: WithdrawalView[];
  /** Issue 26: rows the SMEs took back, newest first (at most 100). */
  reversals: {
    id: string;
    splitId: string;
    rosterEntryId: string;
    amountCents: string;
    fromBalanceCents: string;
    owedCents: string;
    currency: string;
    occurredAt: string;
    smeCompanyName: string;
  }[];
  wallet: Wallet | null;
}

const TRANSFERS_SHOWN = 100;

/** GET /api/commerce/me/earnings: a contractor's service balance, what it received and what it withdrew. */
@Injectable()
export class EarningsQuery {
  constructor(
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    private readonly aggregates: AggregateRepository,
  ) {}

  async earnings(userId: string): Promise<EarningsView> {
    const { contractors, wallet } = await contractorAccountsOf(this.documents, userId);
    const [earned, credits, { state }, owed, reversals] = await Promise.all([
      withdrawableByAccount(this.documents, contractors),
      contractorCredits(this.documents, contractors, TRANSFERS_SHOWN),
      this.aggregates.load(contractorWithdrawalsStreamId(userId), contractorWithdrawalsDecider),
      owedByCurrency(this.documents, contractors),
      contractorReversals(this.documents, contractors, TRANSFERS_SHOWN),
    ]);
    const withdrawals = Object.values(state.withdrawals);
    const currencies = [...new Set([...Object.keys(earned), ...withdrawals.map((w) => w.currency), ...Object.keys(owed)])].sort();
    const balances = currencies.map((currency) => {
      const available = Object.values(availableByAccount(state, currency, earned[currency] ?? {})).reduce((sum, cents) => sum + (cents > 0n ? cents : 0n), 0n);
      return { currency, availableCents: available.toString(), owedCents: owed[currency] ?? '0' };
    });
    const names = new Map<string, string>();
    for (const smeCompanyId of new Set([...credits, ...reversals].map((c) => c.smeCompanyId)))
      names.set(smeCompanyId, (await company(this.documents, smeCompanyId))?.name ?? smeCompanyId);
    return {
      balances,
      transfers: credits.map((c) => ({
        id: c.id,
        splitId: c.splitId,
        rosterEntryId: c.rosterEntryId,
        amountCents: c.amountCents,
        currency: c.currency,
        occurredAt: c.postedAt,
        smeCompanyName: names.get(c.smeCompanyId)!,
      })),
      withdrawals: withdrawals
        .map(({ payoutId, amountCents, currency, status, requestedAt }) => ({ id: payoutId, amountCents, currency, status, requestedAt }))
        .sort((a, b) => (a.requestedAt === b.requestedAt ? (a.id < b.id ? 1 : -1) : a.requestedAt < b.requestedAt ? 1 : -1)),
      reversals: reversals.map((r) => ({
        id: r.id,
        splitId: r.splitId,
        rosterEntryId: r.rosterEntryId,
        amountCents: r.amountCents,
        fromBalanceCents: r.fromBalanceCents,
        owedCents: r.owedCents,
        currency: r.currency,
        occurredAt: r.postedAt,
        smeCompanyName: names.get(r.smeCompanyId)!,
      })),
      wallet,
    };
  }
}
