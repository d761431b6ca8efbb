import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { loadPageAssets, sendPageAsset } from './page-assets';
import { Public } from './route-auth';

/** `/assets/<file>` and the favicon, for every page family (see page-assets.ts). */
@ApiExcludeController()
@Public()
@Controller()
export class PageAssetsController {
  private readonly assets = loadPageAssets();

  @Get(['favicon.ico', 'favicon.svg'])
  favicon(@Res() reply: FastifyReply) {
    this.send(reply, 'favicon.svg');
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply) {
    this.send(reply, name);
  }

  /** `/checkout.js`, the embedded checkout component merchants load from their own pages. */
  @Get('checkout.js')
  checkoutJs(@Res() reply: FastifyReply) {
    this.send(reply, 'checkout.js', { 'Access-Control-Allow-Origin': '*' });
  }

  private send(reply: FastifyReply, name: string, headers: Record<string, string> = {}): void {
    if (!sendPageAsset(reply, this.assets, name, headers)) throw new NotFoundException(`No page asset named ${name}`);
  }
}
