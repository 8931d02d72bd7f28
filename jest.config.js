// Node 20: Jest cannot require() ESM-only packages (NestJS 12, jose, ...) nor run import() without
// --experimental-vm-modules, so those packages are transformed to CommonJS by swc.
const transformDeps = [
  '@electric-sql',
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  '@borewit',
  'uint8array-extras',
  'jose',
  'json-schema-typed',
  // tree-sitter's runtime loads node:module with import(), which Jest's VM refuses; transformed, it is a require.
  '@vscode/tree-sitter-wasm',
];

const specFile = '\\.(spec|e2e-spec)\\.ts$';
const ignored = ['/node_modules/', '/dist/'];

// The `unit` project: specs that use no database, no Redis and boot no app, so their outcome cannot
// depend on DATABASE_URL/REDIS_URL and .ci/run runs them on the PGlite pass only. Every other spec
// is in `db` and runs on both backends; a new spec stays there until it is listed here.
const root = __dirname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const unitSpecs = [
  'bench/support/(limiter-probe-app|peer-mapping)',
  'scripts/build-if-changed',
  'src/app-guard',
  'src/applications/.+',
  'src/auth/api-keys\\.service',
  'src/cli/.+',
  'src/common/(clearing-map|filters/.+|package-version|security/.+|validation-issue-types)',
  'src/config/.+',
  'src/inventory-import/.+',
  'src/inventory/resource-category',
  'src/logging/.+',
  'src/mcp/.+',
  'src/rate-limit/(client-address|rate-limit\\.guard|rate-limit\\.middleware|route-matcher|store/(fallback|memory)-rate-limit\\.store)',
  'src/sbom/.+',
  'src/scanner/.+',
  'test/(architecture/.+|dependency-engines|deploy/.+|red-team-manifest)',
  // The CLI against a scripted server or none, with a cleaned environment (test/e2e/cli-harness.ts).
  'test/e2e/(cli-gates|ci-integrations|cli-package)',
  // The judge against test/fakes/fake-llm-server.ts.
  'test/integration/judge-.+',
].map((path) => `^${root}/${path}${specFile}`);

const project = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.(t|j|cj)s$': ['@swc/jest'] },
  transformIgnorePatterns: [`/node_modules/(?!(${transformDeps.join('|')})/)`],
  // The scanner's code parsers (WebAssembly) load asynchronously; ready them before each spec file.
  setupFilesAfterEnv: ['<rootDir>/test/jest.code-parsers.setup.ts'],
};

module.exports = {
  // `npm test` runs both; `npm run test:unit` / `npm run test:db` (jest --selectProjects) one of them.
  projects: [
    { ...project, displayName: 'unit', testRegex: unitSpecs, testPathIgnorePatterns: ignored },
    { ...project, displayName: 'db', testRegex: `.*${specFile}`, testPathIgnorePatterns: [...ignored, ...unitSpecs] },
  ],
  testTimeout: 60000,
  // Jest's default is cores - 1 (one worker on CI's 2 cores); test files are independent processes.
  maxWorkers: 2,
};
