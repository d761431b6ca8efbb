import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * The built dashboard (Vite output, dist/dashboard-web): index.html and content-hashed assets, read once
 * and kept in memory (a few hundred KiB). Found next to the compiled server (dist/src/dashboard/http ->
 * dist/dashboard-web) or, when the server runs from source (jest), under dist/ of the repository.
 */
export interface DashboardFile {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.json': 'application/json',
};

export class DashboardFiles {
  /** Only files that exist: a miss is not remembered, so unknown names cannot grow the map (issue 24). */
  private readonly cache = new Map<string, DashboardFile>();
  readonly root: string | null;

  constructor(candidates = [join(__dirname, '..', '..', '..', 'dashboard-web'), join(__dirname, '..', '..', '..', 'dist', 'dashboard-web')]) {
    this.root = candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
  }

  /** How many files the cache holds (at most the build's assets). */
  get cachedFiles(): number {
    return this.cache.size;
  }

  /** index.html, re-read when it is missing from the cache (a rebuild while the service runs gets the new entry point). */
  index(): DashboardFile | null {
    return this.read('index.html', false);
  }

  /**
   * `assets/<name>` where name is one flat file name (no traversal): hashed, so cached forever once found.
   * A name that does not exist is looked up on disk each time and never cached, so the cache holds at most
   * the files of the build.
   */
  asset(name: string): DashboardFile | null {
    if (!/^[\w-]+(\.[\w-]+)*\.[a-z0-9]+$/i.test(name)) return null;
    return this.read(join('assets', name), true);
  }

  private read(relative: string, cache: boolean): DashboardFile | null {
    if (!this.root) return null;
    const cached = cache ? this.cache.get(relative) : undefined;
    if (cached) return cached;
    const path = join(this.root, relative);
    const file = existsSync(path)
      ? { body: readFileSync(path), type: TYPES[extname(path)] ?? (relative.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream') }
      : null;
    if (cache && file) this.cache.set(relative, file);
    return file;
  }
}
