import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyReply } from 'fastify';

/**
 * The static files of the pages a person sees (stylesheets, scripts, the favicon): real files in an
 * `http/assets/` folder of the module whose pages use them (`src/platform/http/assets/` for what every
 * page family shares), copied beside the build by `scripts/copy-page-assets.js`, read once at start and
 * served from the service's own origin at `/assets/<file>` (the page policy allows no inline script or
 * style). A module adds an asset by adding the file; two files of one name are refused at start.
 */
export interface PageAsset {
  contentType: string;
  body: Buffer;
}

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** `src` (or `dist/src` once built): this file is `<root>/platform/http/page-assets.{ts,js}`. */
const SOURCE_ROOT = join(__dirname, '..', '..');

export function loadPageAssets(root = SOURCE_ROOT): Map<string, PageAsset> {
  const assets = new Map<string, PageAsset>();
  for (const module of readdirSync(root, { withFileTypes: true })) {
    if (!module.isDirectory()) continue;
    const folder = join(root, module.name, 'http', 'assets');
    let files: string[];
    try {
      files = readdirSync(folder);
    } catch {
      continue; // a module without page assets
    }
    for (const file of files) {
      const contentType = CONTENT_TYPES[extname(file)];
      if (!contentType) throw new Error(`Page asset ${join(folder, file)} has no known content type (${Object.keys(CONTENT_TYPES).join(', ')})`);
      if (assets.has(file)) throw new Error(`Two page assets are named ${file}; asset names are global (/assets/${file})`);
      assets.set(file, { contentType, body: readFileSync(join(folder, file)) });
    }
  }
  return assets;
}

/** Sends an asset with a short public cache; false when there is none of that name. */
export function sendPageAsset(reply: FastifyReply, assets: Map<string, PageAsset>, name: string, headers: Record<string, string> = {}): boolean {
  const asset = assets.get(name);
  if (!asset) return false;
  void reply.type(asset.contentType).header('Cache-Control', 'public, max-age=300').headers(headers).send(asset.body);
  return true;
}
