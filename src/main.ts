import { ConfigError, loadConfig } from './platform/config/app-config';
import { createLogger } from './platform/logging/app-logger';
import { startApp } from './bootstrap';
import { CheckpointBeyondLogError } from './platform/projections/checkpoints-within-log';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const running = await startApp(config, logger);
  logger.info({ url: running.url, role: config.role, sandbox: config.sandbox, dataDir: config.dataDir }, 'paysplit listening');
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof CheckpointBeyondLogError ? error.message : error);
  process.exit(1);
});
