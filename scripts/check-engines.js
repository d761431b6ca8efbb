#!/usr/bin/env node
// Fails when an installed package says it does not support this Node version: the same check behind
// `npm ci`'s EBADENGINE warnings, made an error (issue 16 item 10). It reads the engines.node field of
// every package the lockfile installs and that is on disk (optional packages of other platforms are
// not), and compares it with process.version using semver, as npm does. Run by `npm test`'s pretest;
// `node scripts/check-engines.js` prints what is wrong. Pin a supporting version through package.json
// "overrides" (docs/decisions.md) rather than silencing this.
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const semver = require('semver');

const root = join(__dirname, '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const ownRange = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
if (!semver.satisfies(process.version, ownRange)) {
  console.error(`check-engines: this is node ${process.version}; the project needs ${ownRange}`);
  process.exit(1);
}
const problems = [];
let checked = 0;
for (const path of Object.keys(lock.packages)) {
  if (path === '') continue;
  const manifest = join(root, path, 'package.json');
  if (!existsSync(manifest)) continue;
  const { name, version, engines } = JSON.parse(readFileSync(manifest, 'utf8'));
  checked += 1;
  const range = engines && typeof engines === 'object' ? engines.node : undefined;
  if (typeof range !== 'string') continue;
  // What npm ci warns about: the running Node is outside the package's range.
  if (!semver.satisfies(process.version, range, { includePrerelease: true })) problems.push(`${name}@${version} (${path}) requires node ${range}; this is ${process.version}`);
}
if (checked === 0) {
  console.error('check-engines: no installed packages found; run npm ci first');
  process.exit(1);
}
if (problems.length > 0) {
  console.error(`check-engines: ${problems.length} installed package(s) do not support the Node versions this project promises:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-engines: all ${checked} installed packages support node ${process.version}`);
