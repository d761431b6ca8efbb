import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './platform/config/app-config';
import { createLogger } from './platform/logging/app-logger';
import { Platform } from './platform/platform';
import { PlatformRuntime } from './platform/platform-runtime';
import { isProjection } from './platform/projections/projection-batch';
import { Projection } from './platform/projections/projection';
import { rebuildProjection, RebuildProgress } from './platform/projections/rebuild-projection';
import { SplitHistory } from './split/application/split-history';
import { replayLedger, verifyLedger } from './ledger/application/ledger-verifier';
import { verifyStatements } from './ledger/application/statement-verifier';
import { addToTotals, exportLines, formatTotals, LineTotals } from './ledger/application/ledger-export';
import { BALANCE_TRANSACTION_CSV } from './ledger/application/books.csv';
import { csvText } from './platform/http/csv';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from './platform/domain/domain-error';
import { OperationalChargeBook, replayCheckoutCharges, verifyCheckoutCharges } from './checkout';

/** A command line the CLI cannot run: what is wrong with it, said before anything is opened. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly command: CliCommand | null = null,
  ) {
    super(message);
  }
}

interface CliCommand {
  name: string;
  /** The arguments, as the usage shows them. */
  args: string;
  summary: string;
  /** Checks the arguments (throwing a UsageError that says what is wrong) before the stores are opened. */
  parse(args: string[]): unknown[];
  run(platform: Platform, ...args: never[]): Promise<number>;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function exactly(count: number, names: string) {
  return (args: string[]): string[] => {
    if (args.length < count) throw new UsageError(`missing ${names.split(' ').slice(args.length).join(' ')}`);
    if (args.length > count)
      throw new UsageError(
        `unexpected argument${args.length - count > 1 ? 's' : ''} ${args
          .slice(count)
          .map((a) => JSON.stringify(a))
          .join(' ')}`,
      );
    return args;
  };
}

function isoTime(text: string): Date {
  const at = new Date(text);
  if (!ISO_TIME.test(text) || Number.isNaN(at.getTime())) throw new UsageError(`invalid time ${JSON.stringify(text)}: expected an ISO 8601 time such as 2026-11-22T10:00:00Z`);
  return at;
}

const COMMANDS: CliCommand[] = [
  { name: 'projections:status', args: '', summary: 'checkpoint, lag and state of every projection and process manager', parse: exactly(0, ''), run: projectionsStatus },
  {
    name: 'projections:rebuild',
    args: '<name>|--all',
    summary: 'replay into a shadow generation and swap it in (the API keeps serving)',
    parse: exactly(1, '<name>|--all'),
    run: projectionsRebuild,
  },
  {
    name: 'projections:resume',
    args: '<name>',
    summary: 'clear a stalled projection or process manager so its runner retries',
    parse: exactly(1, '<name>'),
    run: projectionsResume,
  },
  { name: 'splits:history', args: '<splitId>', summary: 'every event of a Split, in order', parse: exactly(1, '<splitId>'), run: splitsHistory },
  {
    name: 'splits:as-of',
    args: '<splitId> <time>',
    summary: 'the Split as it stood at an ISO 8601 time',
    parse: (args) => {
      const [splitId, time] = exactly(2, '<splitId> <time>')(args);
      return [splitId, isoTime(time!)];
    },
    run: splitsAsOf,
  },
  { name: 'ledger:verify', args: '', summary: 'replay the log and check every ledger invariant (exit 3 on a violation)', parse: exactly(0, ''), run: ledgerVerify },
  {
    name: 'ledger:export',
    args: '--from <time> --to <time> [--company <co_id>]',
    summary: 'every ledger line posted in [from, to) as CSV on stdout (its totals on stderr)',
    parse: parseLedgerExport,
    run: ledgerExport,
  },
];

/** `--from <time> --to <time> [--company <co_id>]`, in any order. */
function parseLedgerExport(args: string[]): [Date, Date, string | null] {
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [name, value] = [args[i]!, args[i + 1]];
    if (!['--from', '--to', '--company'].includes(name)) throw new UsageError(`unexpected argument ${JSON.stringify(name)}`);
    if (value === undefined) throw new UsageError(`missing the value of ${name}`);
    options.set(name, value);
  }
  if (!options.has('--from') || !options.has('--to')) throw new UsageError('missing --from or --to');
  const from = isoTime(options.get('--from')!);
  const to = isoTime(options.get('--to')!);
  if (from > to) throw new UsageError('--from must not be after --to');
  return [from, to, options.get('--company') ?? null];
}

const USAGE = ['usage: npm run cli -- <command>', ...COMMANDS.map((c) => `  ${`${c.name} ${c.args}`.padEnd(33)}${c.summary}`)].join('\n');

async function ledgerVerify(platform: Platform): Promise<number> {
  const { postings, splits, lines } = await replayLedger(platform.events);
  const report = verifyLedger(postings, splits);
  // The books (issue 28): every entry booked as a line (the checkout postings by ledger_checkout_books), running balances, opening + lines = closing over random periods.
  const books = verifyStatements(lines, postings);
  console.log(`${books.lines} ledger lines on ${books.accounts} accounts; ${books.statements} statements over random periods checked`);
  const totals: LineTotals = new Map();
  for (const posting of postings) for (const entry of posting.entries) addToTotals(totals, posting.currency, BigInt(entry.credit) - BigInt(entry.debit));
  console.log(`totals: ${formatTotals(totals)}`);
  console.log(
    `${report.postings} postings over ${report.splits} Splits (${report.settledSplits} settled), ${report.reservations} Payout Embed reservations (${report.openReservations} open) and ${report.contractorWithdrawals} contractor withdrawals (${report.withdrawalsInTransit} in transit)`,
  );
  console.log(`${report.checkoutOrders} checkout orders in the ledger, ${report.checkoutRefunds} refunds`);
  for (const { splitId, dueCents } of report.legacyFeesDue)
    console.log(`NOTE ${splitId}: ${dueCents} of the fees its SME covers is still due (created before issue 23; not a violation)`);
  console.log(
    `${report.invoicedSplits} invoiced Splits (${report.collectedSplits} collected in full); ${report.bankTransfers} incoming bank transfers (${report.parkedTransfers} parked for review)`,
  );
  // Checkout charges are in the ledger (issue 26, checked above); this rule checks the other side: each captured charge recorded once, paid or voided, on the order streams and at the sandbox processor.
  const charges = verifyCheckoutCharges(await replayCheckoutCharges(platform.events), platform.config.sandbox ? await new OperationalChargeBook(platform.readStore).all() : null);
  console.log(
    `${charges.orders} checkout orders: ${charges.paid} charges recorded paid, ${charges.voided} voided, ${charges.inFlight} attempts in flight${charges.processorCharges === null ? '' : `; the sandbox processor holds ${charges.processorCharges} charges`}`,
  );
  const violations = [...report.violations, ...books.violations, ...charges.violations];
  for (const violation of violations) console.log(`VIOLATION ${violation.rule}: ${violation.message}`);
  console.log(violations.length === 0 ? 'ledger OK: every invariant holds' : `${violations.length} violation(s)`);
  return violations.length === 0 ? 0 : 3;
}

/** The CSV goes to stdout as it is read (backpressure respected); the totals that tie it to ledger:verify go to stderr. */
async function ledgerExport(platform: Platform, from: Date, to: Date, company: string | null): Promise<number> {
  const totals: LineTotals = new Map();
  const lines = exportLines(platform.readStore, { from: from.toISOString(), to: to.toISOString(), ...(company ? { company } : {}) }, totals);
  await pipeline(Readable.from(csvText(BALANCE_TRANSACTION_CSV, lines)), process.stdout, { end: false });
  console.error(`totals: ${formatTotals(totals)}`);
  return 0;
}

async function splitsHistory(platform: Platform, splitId: string): Promise<number> {
  for (const entry of await new SplitHistory(platform.events, platform.readStore).operatorHistory(splitId)) {
    console.log(`#${entry.revision} ${entry.occurredAt} ${entry.type} by ${entry.actor}`);
    console.log(`    ${JSON.stringify(entry.data)}`);
  }
  return 0;
}

async function splitsAsOf(platform: Platform, splitId: string, at: Date): Promise<number> {
  console.log(JSON.stringify(await new SplitHistory(platform.events, platform.readStore).asOf(splitId, null, at), null, 2));
  return 0;
}

async function projectionsStatus(platform: Platform): Promise<number> {
  const rows = await platform.engine.status();
  console.table(rows.map(({ name, kind, generation, checkpoint, head, lag, status, error }) => ({ name, kind, generation, checkpoint, head, lag, status, error })));
  return rows.every((r) => r.status === 'running') ? 0 : 2;
}

async function projectionsRebuild(platform: Platform, name: string): Promise<number> {
  const projections = platform.engine.subscribers.filter(isProjection);
  const selected: Projection[] = name === '--all' ? projections : projections.filter((p) => p.name === name);
  if (selected.length === 0) {
    console.error(`Unknown projection ${name}; known: ${projections.map((p) => p.name).join(', ')}`);
    return 1;
  }
  for (const projection of selected) {
    const result = await rebuildProjection(platform.events, platform.readStore, projection, {
      nowMs: () => Date.now(),
      onProgress: renderProgress,
      onDiscarded: (generations) => console.log(`${projection.name}: dropped shadow generation(s) ${generations.join(', ')} left by an interrupted rebuild`),
    });
    process.stderr.write('\n');
    console.log(`${projection.name}: rebuilt ${result.applied} events into generation ${result.generation} and swapped it in`);
  }
  return 0;
}

/**
 * A stalled process manager cannot be rebuilt (that would re-issue its commands): once the cause is
 * dealt with, this clears the stall and its runner retries from its checkpoint. If the cause is still
 * there (a real gap), it stalls again, visibly.
 */
async function projectionsResume(platform: Platform, name: string): Promise<number> {
  const known = platform.engine.subscribers.map((s) => s.name);
  if (!known.includes(name)) {
    console.error(`Unknown projection or process manager ${name}; known: ${known.join(', ')}`);
    return 1;
  }
  const state = await platform.readStore.projectionState(name);
  if (state.status !== 'stalled') {
    console.log(`${name} is not stalled (checkpoint ${state.checkpoint ?? 'none'})`);
    return 0;
  }
  await platform.readStore.setProjectionError(name, null);
  console.log(`${name}: cleared "${state.error}"; its runner retries from checkpoint ${state.checkpoint ?? 'none'}`);
  return 0;
}

function renderProgress(p: RebuildProgress): void {
  const width = 30;
  const ratio = p.total === 0 ? 1 : Math.min(1, p.applied / p.total);
  const bar = '#'.repeat(Math.round(ratio * width)).padEnd(width, '.');
  const eta = p.etaSeconds === null ? '?' : `${p.etaSeconds.toFixed(1)}s`;
  process.stderr.write(`\r${p.projection} [${bar}] ${(ratio * 100).toFixed(0)}% ${p.applied}/${p.total} ${Math.round(p.eventsPerSecond)} ev/s ETA ${eta}`);
}

/** The command and its checked arguments, or a UsageError saying what is wrong. */
function parseCommandLine(argv: string[]): { command: CliCommand; args: unknown[] } | 'help' {
  const [name, ...args] = argv;
  if (name === undefined) throw new UsageError('no command given');
  if (name === '--help' || name === '-h' || name === 'help') return 'help';
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  try {
    return { command, args: command.parse(args) };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${command.name}: ${error.message}`, command);
    throw error;
  }
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}`);
    console.error(error.command ? `usage: npm run cli -- ${error.command.name} ${error.command.args}`.trimEnd() : USAGE);
    return 1;
  }
  if (parsed === 'help') {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig(process.env);
  // The same module graph as the service, without HTTP and without starting its background workers.
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)), { logger: ['error'] });
  const runtime = context.get(PlatformRuntime);
  try {
    await runtime.register();
    return await (parsed.command.run as (platform: Platform, ...args: unknown[]) => Promise<number>)(runtime.platform, ...parsed.args);
  } finally {
    await context.close();
    await runtime.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof DomainError ? error.message : error);
    process.exit(1);
  },
);
