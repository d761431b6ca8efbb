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
import { DomainError } from './platform/domain/domain-error';

const USAGE = `usage: npm run cli -- <command>
  projections:status               checkpoint, lag and state of every projection and process manager
  projections:rebuild <name>|--all replay into a shadow generation and swap it in (the API keeps serving)
  projections:resume <name>        clear a stalled projection or process manager so its runner retries
  splits:history <splitId>         every event of a Split, in order
  splits:as-of <splitId> <time>    the Split as it stood at an ISO time
  ledger:verify                    replay the log and check every ledger invariant (exit 3 on a violation)`;

type CommandFn = (platform: Platform, args: string[]) => Promise<number>;

const COMMANDS: Record<string, CommandFn> = {
  'projections:status': projectionsStatus,
  'projections:rebuild': projectionsRebuild,
  'projections:resume': projectionsResume,
  'splits:history': splitsHistory,
  'splits:as-of': splitsAsOf,
  'ledger:verify': ledgerVerify,
};

async function ledgerVerify(platform: Platform): Promise<number> {
  const { postings, splits } = await replayLedger(platform.events);
  const report = verifyLedger(postings, splits);
  console.log(
    `${report.postings} postings over ${report.splits} Splits (${report.settledSplits} settled) and ${report.reservations} Payout Embed reservations (${report.openReservations} open)`,
  );
  for (const violation of report.violations) console.log(`VIOLATION ${violation.rule}: ${violation.message}`);
  console.log(report.violations.length === 0 ? 'ledger OK: every invariant holds' : `${report.violations.length} violation(s)`);
  return report.violations.length === 0 ? 0 : 3;
}

async function splitsHistory(platform: Platform, [splitId]: string[]): Promise<number> {
  if (!splitId) return usage();
  for (const entry of await new SplitHistory(platform.events).history(splitId, null)) {
    console.log(`#${entry.revision} ${entry.occurredAt} ${entry.type} by ${entry.actor}`);
    console.log(`    ${JSON.stringify(entry.data)}`);
  }
  return 0;
}

async function splitsAsOf(platform: Platform, [splitId, time]: string[]): Promise<number> {
  const at = time ? new Date(time) : null;
  if (!splitId || !at || Number.isNaN(at.getTime())) return usage();
  console.log(JSON.stringify(await new SplitHistory(platform.events).asOf(splitId, null, at), null, 2));
  return 0;
}

function usage(): number {
  console.error(USAGE);
  return 1;
}

async function projectionsStatus(platform: Platform): Promise<number> {
  const rows = await platform.engine.status();
  console.table(rows.map(({ name, kind, generation, checkpoint, head, lag, status, error }) => ({ name, kind, generation, checkpoint, head, lag, status, error })));
  return rows.every((r) => r.status === 'running') ? 0 : 2;
}

async function projectionsRebuild(platform: Platform, args: string[]): Promise<number> {
  const projections = platform.engine.subscribers.filter(isProjection);
  const selected: Projection[] = args[0] === '--all' ? projections : projections.filter((p) => p.name === args[0]);
  if (selected.length === 0) {
    console.error(`Unknown projection ${args[0] ?? '(none)'}; known: ${projections.map((p) => p.name).join(', ')}`);
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
async function projectionsResume(platform: Platform, [name]: string[]): Promise<number> {
  const known = platform.engine.subscribers.map((s) => s.name);
  if (!name || !known.includes(name)) {
    console.error(`Unknown projection or process manager ${name ?? '(none)'}; known: ${known.join(', ')}`);
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

async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(USAGE);
    return 1;
  }
  const config = loadConfig(process.env);
  // The same module graph as the service, without HTTP and without starting its background workers.
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)), { logger: ['error'] });
  const runtime = context.get(PlatformRuntime);
  try {
    await runtime.register();
    return await command(runtime.platform, args);
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
