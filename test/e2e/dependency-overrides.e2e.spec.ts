import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { tempDir } from '../support/temp-dir';

/**
 * Issue 16 item 10: package.json "overrides" pin content-disposition, cookie and file-type to releases
 * that support Node 20 (docs/decisions.md). The service itself serves no static files and sets no
 * cookies, but the packages that load them do at run time; these are the code paths of theirs that
 * use the pinned modules, run on this Node, so an override that breaks a dependent's call fails here.
 */
describe('dependencies pinned for Node 20 (issue 16 item 10)', () => {
  it('@fastify/static serves a file and a download (content-disposition)', async () => {
    const root = tempDir('static');
    writeFileSync(join(root, 'résumé.txt'), 'hello');
    const app = Fastify();
    await app.register(fastifyStatic, { root });
    app.get('/download', (_request, reply) => reply.download('résumé.txt'));
    try {
      const served = await app.inject({ method: 'GET', url: `/${encodeURIComponent('résumé.txt')}` });
      expect([served.statusCode, served.body]).toEqual([200, 'hello']);
      const download = await app.inject({ method: 'GET', url: '/download' });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toBe(`attachment; filename="r?sum?.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`);
    } finally {
      await app.close();
    }
  });

  it("Fastify's inject sends cookies (light-my-request's cookie)", async () => {
    const app = Fastify();
    app.get('/echo', (request) => ({ cookie: request.headers.cookie }));
    try {
      const response = await app.inject({ method: 'GET', url: '/echo', cookies: { session: 'a b', theme: 'dark' } });
      expect(response.json()).toEqual({ cookie: 'session=a%20b; theme=dark' });
    } finally {
      await app.close();
    }
  });

  it('file-type (loaded by Nest’s FileTypeValidator) detects a PNG', () => {
    // An ES module: run it in its own Node, as Nest loads it (a dynamic import), not in Jest's sandbox,
    // resolved from @nestjs/common's folder as Nest resolves it.
    const script = `import { fileTypeFromBuffer } from 'file-type';
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      console.log(JSON.stringify(await fileTypeFromBuffer(png)));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dirname(require.resolve('@nestjs/common/package.json')), encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ ext: 'png', mime: 'image/png' });
  });
});
