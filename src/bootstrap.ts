import 'reflect-metadata';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EnvelopingFastifyAdapter } from './platform/http/envelope';
import { LogController } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { AppConfig } from './platform/config/app-config';
import { Platform } from './platform/platform';
import { PlatformRuntime } from './platform/platform-runtime';
import { AppLogger } from './platform/logging/app-logger';
import { newId } from './platform/ids/ids';
import { createValidationPipe } from './platform/http/validation';
import { installBodyParsers } from './platform/http/body-parsers';
import { installDashboardFraming } from './platform/http/dashboard-framing';
import { installNoSniff } from './platform/http/security-headers';
import { closeConnectionsAtShutdown } from './platform/http/connections-at-shutdown';
import { frameworkErrorHandler } from './platform/http/error-filter';
import { MetricsRegistry } from './platform/metrics/metrics-registry';
import { sqliteWalBytes } from './platform/sqlite/wal-checkpointer';
import { completeOpenApi, ErrorDto, PageMetaDto } from './platform/http/openapi';
import { openApiCredentials } from './identity';

const ONE_MIB = 1024 * 1024;

export interface RunningApp {
  app: NestFastifyApplication;
  platform: Platform;
  url: string;
  close(): Promise<void>;
}

/** A hop count as Fastify's trust function: the nearest `hops` proxies are believed (as proxy-addr does for a number). */
const trustedHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

/** Builds the platform, the HTTP app and the workers this process's ROLE asks for, and starts listening. */
export async function startApp(config: AppConfig, logger: AppLogger): Promise<RunningApp> {
  const adapter = new EnvelopingFastifyAdapter({
    loggerInstance: logger,
    bodyLimit: ONE_MIB,
    genReqId: () => newId('req', Date.now()),
    requestIdHeader: 'x-request-id',
    // request.ip (login limits, payment-link limits, logs) is the TCP peer unless TRUST_PROXY says which
    // proxies' X-Forwarded-For to believe (docs/operations.md#configuration, issue 24).
    trustProxy: typeof config.trustProxy === 'number' ? trustedHops(config.trustProxy) : config.trustProxy,
    frameworkErrors: frameworkErrorHandler,
    // Slow bodies must not hold connections forever: the whole request has to arrive in time (408
    // otherwise), checked every second; and the number of open connections is capped (issue 15).
    requestTimeout: config.httpRequestTimeoutMs,
    http: { requestTimeout: config.httpRequestTimeoutMs, headersTimeout: Math.min(config.httpRequestTimeoutMs, 60_000), connectionsCheckingInterval: 1_000 },
    // Per-request lines are logged at debug only (docs/operations.md#configuration): see logRequests.
    logController: new LogController({ disableRequestLogging: true }),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, logger), adapter, {
    logger: ['error', 'warn'],
    bufferLogs: false,
    // Bodies are parsed by installBodyParsers only (strict UTF-8, depth and size bounds), not by Nest's parsers.
    bodyParser: false,
  });
  installBodyParsers(app.getHttpAdapter().getInstance());
  installNoSniff(app.getHttpAdapter().getInstance());
  installDashboardFraming(app.getHttpAdapter().getInstance());
  closeConnectionsAtShutdown(app.getHttpAdapter().getInstance(), config.httpRequestTimeoutMs);
  const runtime = app.get(PlatformRuntime);
  const { platform } = runtime;
  app.useGlobalPipes(createValidationPipe());
  countRequests(app, platform.metrics);
  logRequests(app, logger);
  mountOpenApi(app);
  platform.metrics.addCollector(async () => projectionLagMetrics(platform));
  platform.metrics.addCollector(async () => timerMetrics(platform));
  platform.metrics.addCollector(async () => walMetrics(config));
  await app.init();
  await runtime.register();
  await runtime.checkStores().catch(async (error: unknown) => {
    await app.close();
    await runtime.stop();
    throw error;
  });
  if (config.role !== 'api') runtime.startWorkers();
  app.getHttpServer().maxConnections = config.httpMaxConnections;
  await app.listen(config.port, '0.0.0.0');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    app,
    platform,
    url: `http://127.0.0.1:${port}`,
    async close() {
      // Requests in flight are answered first, for at most the request timeout (closeConnectionsAtShutdown).
      await runtime.stopStep('closing the HTTP server', () => app.close());
      await runtime.stop();
    },
  };
}

/** The document at /docs, completed from the code: answers, credentials and error codes (src/platform/http/openapi.ts). */
function mountOpenApi(app: NestFastifyApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Paysplit API')
      .setDescription('Checkout, Split payments and webhooks. Success: {data} or {data, meta}; errors: {error:{code,message,details}} with a stable code (docs/api.md).')
      .setLicense('Proprietary', 'https://paysplit.example/terms')
      .addServer('/', 'This service (the document is served by the service it describes)')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: "A Payout Embed session's embed token, from the #t= fragment of its embedUrl" }, 'embedToken')
      .build(),
    { extraModels: [ErrorDto, PageMetaDto] },
  );
  SwaggerModule.setup('docs', app, completeOpenApi(app, document, openApiCredentials), { jsonDocumentUrl: 'docs/openapi.json' });
}

function countRequests(app: NestFastifyApplication, metrics: MetricsRegistry): void {
  metrics.describe('paysplit_http_requests_total', 'HTTP requests by method, route and status');
  app
    .getHttpAdapter()
    .getInstance()
    // Callback hooks here and in logRequests: an async hook costs every answer a promise and a microtask.
    .addHook('onResponse', (request, reply, done) => {
      metrics.increment('paysplit_http_requests_total', {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      });
      done();
    });
}

/**
 * One `request completed` line per request, at debug: at info a busy service would write a line per
 * request, which is what /metrics counts. Failures (5xx) are logged at error by the error filter.
 */
function logRequests(app: NestFastifyApplication, logger: AppLogger): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      if (logger.isLevelEnabled('debug')) {
        logger.debug(
          { reqId: request.id, method: request.method, url: request.url, statusCode: reply.statusCode, responseTimeMs: Math.round(reply.elapsedTime * 10) / 10 },
          'request completed',
        );
      }
      done();
    });
}

/** The WAL file of each embedded SQLite store, which WalCheckpointer keeps near its limit (docs/operations.md). */
function walMetrics(config: AppConfig): string[] {
  const files = [...(config.eventStoreUrl ? [] : ['events']), ...(config.mongoUrl ? [] : ['read', 'webhooks'])];
  if (files.length === 0) return [];
  const lines = ['# HELP paysplit_sqlite_wal_bytes Size of the WAL file of an embedded SQLite store', '# TYPE paysplit_sqlite_wal_bytes gauge'];
  for (const name of files) lines.push(`paysplit_sqlite_wal_bytes{database="${name}"} ${sqliteWalBytes(join(config.dataDir, `${name}.db`))}`);
  return lines;
}

/** Scheduled and parked timers per kind. */
async function timerMetrics(platform: Platform): Promise<string[]> {
  const lines = ['# HELP paysplit_timers Scheduled and parked durable timers by kind', '# TYPE paysplit_timers gauge'];
  for (const { kind, status, count } of await platform.readStore.timerCounts()) lines.push(`paysplit_timers{kind="${kind}",status="${status}"} ${count}`);
  return lines;
}

async function projectionLagMetrics(platform: Platform): Promise<string[]> {
  const lines = ['# HELP paysplit_projection_lag Events not yet applied per projection', '# TYPE paysplit_projection_lag gauge'];
  for (const status of await platform.engine.status()) lines.push(`paysplit_projection_lag{projection="${status.name}"} ${status.lag}`);
  return lines;
}
