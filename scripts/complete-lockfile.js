#!/usr/bin/env node
// The npm registry mirror our machines reach serves only the platform packages of this platform, so
// `npm install` writes package-lock.json without the optional native bindings for other platforms
// (@swc/core-darwin-*, @unrs/resolver-binding-*) and `npm ci` then refuses the lock as out of sync.
// This adds those entries, marked optional with their os/cpu (read from the package name), so npm ci
// accepts the lock and skips them as not for this platform, exactly as it would with a full lock.
// Run it after any change to dependencies: `node scripts/complete-lockfile.js`.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const OS = new Set(['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix']);
const file = join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (packages[`node_modules/${name}`] || packages[`${path}/node_modules/${name}`]) continue;
    const tokens = name.split('/').pop().split('-');
    const osIndex = tokens.findIndex((t) => OS.has(t));
    const platform = osIndex >= 0 ? { os: [tokens[osIndex]], cpu: [tokens[osIndex + 1]] } : { cpu: [tokens.find((t) => t.startsWith('wasm'))] };
    const libc = tokens.includes('musl') || tokens.includes('musleabihf') ? { libc: ['musl'] } : tokens.includes('gnu') ? { libc: ['glibc'] } : {};
    packages[`node_modules/${name}`] = { version, optional: true, ...platform, ...libc };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} optional platform entries to package-lock.json`);
