// Node 20: Jest cannot require() ESM-only packages (NestJS 12, jose, ...) nor run import() without
// --experimental-vm-modules, so those packages are transformed to CommonJS by swc (STACK.md P1-P3).
const transformDeps = ['@electric-sql', '@nestjs', 'file-type', 'strtok3', 'token-types', '@tokenizer',
  '@borewit', 'uint8array-extras', 'jose', 'json-schema-typed',
  // tree-sitter's runtime loads node:module with import(), which Jest's VM refuses; transformed, it is a require.
  '@vscode/tree-sitter-wasm'];

module.exports = {
  testEnvironment: 'node',
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.(t|j|cj)s$': ['@swc/jest'] },
  transformIgnorePatterns: [`/node_modules/(?!(${transformDeps.join('|')})/)`],
  testTimeout: 60000,
  // The scanner's code parsers (WebAssembly) load asynchronously; ready them before each spec file.
  setupFilesAfterEnv: ['<rootDir>/test/jest.code-parsers.setup.ts'],
  // Jest's default is cores - 1 (one worker on CI's 2 cores); test files are independent processes.
  maxWorkers: 2,
};
