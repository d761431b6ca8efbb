// NestJS 12 ships ES modules only; jest's module loader needs them compiled to CommonJS (node >= 20.19
// runs them natively via require(esm), but jest's own loader does not on node 20).
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: false } }];
const esmPackages = ['@nestjs', 'file-type', 'strtok3', 'token-types', '@tokenizer', '@borewit', 'uint8array-extras', 'toad-cache', 'cookie', 'set-cookie-parser', 'libphonenumber-js', '@standard-schema', 'fast-check', 'long', 'content-disposition'];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  testTimeout: 30000,
};
