#!/usr/bin/env node
// `npm run build` runs this after tsc: it copies every page asset (src/<module>/http/assets/*, see
// src/platform/http/page-assets.ts) to the same place under dist/, where the built service reads them.
const { cpSync, existsSync, readdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
for (const module of readdirSync(join(root, 'src'), { withFileTypes: true })) {
  if (!module.isDirectory()) continue;
  const from = join(root, 'src', module.name, 'http', 'assets');
  if (!existsSync(from)) continue;
  const to = join(root, 'dist', 'src', module.name, 'http', 'assets');
  rmSync(to, { recursive: true, force: true }); // an asset deleted from src/ is gone from dist/ too
  cpSync(from, to, { recursive: true });
}
