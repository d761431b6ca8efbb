import { Writable } from 'node:stream';
import pino from 'pino';
import { startApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/platform/config/app-config';
import { tempDir } from '../support/temp-dir';

/** Request lines only at debug, as docs/operations.md says of LOG_LEVEL (issue 16, item 8). */
describe('request logging', () => {
  async function linesFor(level: string): Promise<{ level: number; msg: string; [key: string]: unknown }[]> {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: tempDir('logging'), LOG_LEVEL: level });
    const running = await startApp(config, pino({ level, base: { service: 'paysplit' } }, sink));
    try {
      lines.length = 0;
      expect((await fetch(`${running.url}/health`)).status).toBe(200);
      expect((await fetch(`${running.url}/api/sandbox/clock`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await running.close();
    }
    return lines.map((line) => JSON.parse(line) as { level: number; msg: string });
  }

  it('logs no line per request at info', async () => {
    const lines = await linesFor('info');
    expect(lines.filter((line) => /request/.test(line.msg))).toEqual([]);
  });

  it('logs one "request completed" line per request at debug', async () => {
    const completed = (await linesFor('debug')).filter((line) => line.msg === 'request completed');
    expect(completed).toEqual([
      expect.objectContaining({ level: 20, method: 'GET', url: '/health', statusCode: 200, reqId: expect.any(String), responseTimeMs: expect.any(Number) }),
      expect.objectContaining({ level: 20, method: 'GET', url: '/api/sandbox/clock', statusCode: 200 }),
    ]);
  });
});
