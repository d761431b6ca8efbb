import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../identity';
import { setPageHeaders } from '../../platform/http/security-headers';
import { DashboardFiles } from './dashboard-files';

/**
 * The page policy every page of the service sends (platform/http/security-headers.ts: own origin only, no
 * inline script, never framed, no Referer), with caching set per answer: index.html is revalidated on
 * every load so a deploy is picked up at once; hashed assets never change, so they are cached for a year.
 */
function secure(reply: FastifyReply): FastifyReply {
  return setPageHeaders(reply, 'none');
}

/** Serves the single-page app: the same index.html for every /dashboard route (the app routes in the browser), hashed assets forever. */
@ApiExcludeController()
@Public()
@Controller('dashboard')
export class DashboardController {
  private readonly files = new DashboardFiles();

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply) {
    const file = this.files.asset(name);
    if (!file) return void secure(reply).status(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Not found');
    void secure(reply).type(file.type).header('Cache-Control', 'public, max-age=31536000, immutable').send(file.body);
  }

  @Get(['', '*'])
  page(@Res() reply: FastifyReply) {
    const index = this.files.index();
    if (!index)
      return void secure(reply).status(503).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('The dashboard is not built: run `npm run build`.');
    void secure(reply).type(index.type).header('Cache-Control', 'no-cache').send(index.body);
  }
}
