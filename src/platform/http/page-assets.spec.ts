import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { loadPageAssets } from './page-assets';

function sourceTree(files: Record<string, string>): string {
  const root = tempDir('page-assets');
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}

describe('page assets', () => {
  it('serves every file under a module http/assets folder by its name, with its content type', () => {
    const assets = loadPageAssets(sourceTree({ 'platform/http/assets/pages.css': 'body{}', 'shop/http/assets/shop.js': 'go()', 'shop/http/other.ts': '', 'shop/domain/x.ts': '' }));
    expect([...assets.keys()].sort()).toEqual(['pages.css', 'shop.js']);
    expect(assets.get('shop.js')).toEqual({ contentType: 'application/javascript; charset=utf-8', body: Buffer.from('go()') });
    expect(assets.get('pages.css')!.contentType).toBe('text/css; charset=utf-8');
  });

  it('refuses two assets of one name and a file of unknown type, at start', () => {
    expect(() => loadPageAssets(sourceTree({ 'a/http/assets/app.js': '', 'b/http/assets/app.js': '' }))).toThrow('Two page assets are named app.js');
    expect(() => loadPageAssets(sourceTree({ 'a/http/assets/notes.txt': '' }))).toThrow('no known content type');
  });

  it('finds the assets the pages of this service link to', () => {
    const names = [...loadPageAssets().keys()].sort();
    expect(names).toEqual(['card-form.js', 'checkout.js', 'favicon.svg', 'frame.js', 'pages.css', 'payout-embed.css', 'payout-embed.js']);
  });
});
