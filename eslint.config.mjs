// ESLint flat config: typescript-eslint (type-aware) plus the import boundaries of docs/architecture.md.
// Formatting is Prettier's job (eslint-config-prettier turns off the rules that would fight it).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const RULES_DOC = 'docs/architecture.md, "Boundaries, lint and format"';

/**
 * Every folder under src/ is classified, never listed by hand: `platform` is the cross-cutting layer, and
 * any other folder is a business module, which must have its public index.ts and its <name>.module.ts.
 * A folder that is neither stops lint at once, so a new module cannot slip past the boundary rules.
 */
export function classifySourceFolders(srcDir) {
  const modules = [];
  for (const entry of readdirSync(srcDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'platform') continue;
    const missing = ['index.ts', `${entry.name}.module.ts`].filter((file) => !existsSync(join(srcDir, entry.name, file)));
    if (missing.length > 0) {
      throw new Error(`eslint.config.mjs: cannot classify src/${entry.name}/: a business module needs ${missing.join(' and ')} (${RULES_DOC}, "How to add a module").`);
    }
    modules.push(entry.name);
  }
  return modules.sort();
}

/** Business modules: src/<name>/. Each one's public surface is its index.ts. */
const MODULES = classifySourceFolders(join(import.meta.dirname, 'src'));
const DRIVERS = ['better-sqlite3', 'mongodb', '@eventstore/db-client', 'undici', 'fastify'];
const alternatives = (names) => names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/**
 * Three boundary rules, each on its own rule name, because a later config block that sets the same rule
 * replaces its options instead of adding to them, and a domain/ file of a module is under (a) and (c):
 *   (a) domain/ imports no NestJS, no driver, no HTTP            -> @typescript-eslint/no-restricted-imports
 *   (b) platform imports no business module                       -> no-restricted-imports (src/platform/**)
 *   (c) a module imports another only through its index.ts        -> no-restricted-imports (src/<module>/**)
 * (b) and (c) never apply to the same file. Relative specifiers are matched as written (no resolver):
 * '../../split/domain/x' is another module's internals, '../../split' or '../../split/index' its API.
 * Static imports and `export ... from` are checked; require() and import() are not (none in modules).
 * Composition roots (src/*.ts: app.module, cli, bootstrap) and test/ may reach into modules.
 */
const domainRule = [
  'error',
  {
    paths: DRIVERS.map((name) => ({ name, message: `Domain code is pure: no database, HTTP or event store driver (${RULES_DOC}).` })),
    patterns: [
      { regex: '^@nestjs/', message: `Domain code is pure: no NestJS import (${RULES_DOC}).` },
      { regex: `^(${alternatives(DRIVERS)})/`, message: `Domain code is pure: no driver import (${RULES_DOC}).` },
      // platform/http, or an http/ folder reached relatively ('../http/x' from platform/domain or a module's domain/).
      { regex: '(^|/)http(/|$)', message: `Domain code imports nothing of HTTP (platform/http or an http/ folder; ${RULES_DOC}).` },
    ],
  },
];

const platformRule = [
  'error',
  {
    patterns: [
      {
        regex: `^(\\.\\./)+(${alternatives(MODULES)})(/|$)`,
        message: `Platform is cross-cutting and imports no business module; move the dependency the other way (a port in platform, implemented by the module; ${RULES_DOC}).`,
      },
    ],
  },
];

const moduleRule = (self) => [
  'error',
  {
    patterns: [
      {
        regex: `^(\\.\\./)+(${alternatives(MODULES.filter((name) => name !== self))})/(?!index(\\.js)?$).+`,
        message: `Import another module through its index.ts (e.g. '../../split'), not its internals (${RULES_DOC}).`,
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', '.bench-data/', 'docker/', 'docs/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The code names deliberately unused bindings with a leading underscore (rest-omit, ignored args).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // async methods implement Promise-returning ports and Nest handlers without always awaiting.
      '@typescript-eslint/require-await': 'off',
      // Non-null assertions on indexed access are deliberate (the tsconfig has no noUncheckedIndexedAccess);
      // this rule would strip them all.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  // Tests and benchmarks read untyped JSON answers (`any`) and pass methods to jest's expect.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  // (a) domain folders stay pure.
  { files: ['src/**/domain/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': domainRule } },
  // (b) platform knows no business module.
  { files: ['src/platform/**/*.ts'], rules: { 'no-restricted-imports': platformRule } },
  // (c) modules meet only at their index.ts.
  ...MODULES.map((name) => ({ files: [`src/${name}/**/*.ts`], rules: { 'no-restricted-imports': moduleRule(name) } })),
  prettier,
);
