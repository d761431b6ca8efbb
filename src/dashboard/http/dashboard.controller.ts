import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../identity';
import { DashboardFiles } from './dashboard-files';

/**
 * The dashboard's policy (docs/dashboard.md#security): scripts, styles, images and calls from the service's
 * own origin only (no inline script, nothing from a CDN), never framed by another page.
 */
const CSP = "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; object-src 'none'; frame-ancestors 'none'";

function secure(reply: FastifyReply): FastifyReply {
  return reply.header('Content-Security-Policy', CSP).header('X-Frame-Options', 'DENY').header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'same-origin');
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
