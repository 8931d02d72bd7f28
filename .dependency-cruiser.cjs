// Module boundaries, checked by `npm run lint` (docs/decisions/0018-module-boundaries.md).
// Known violations still to be moved are listed, one by one, in .dependency-cruiser-known-violations.json:
// they are reported as warnings, any new violation fails the run.

/** The scanner's engine folders: pure TypeScript, usable by the CLI without a server or a database. */
const ENGINE = '^src/scanner/(engine|rules|views|parsers|scoring|archive|code|instructions|lexicons|judge)/';

/** The server's Nest modules (everything under src/ except the CLI, the scanner's engine and shared helpers). */
const SERVER_MODULES =
  '^src/(app\\.module|create-app|main|applications|auth|cli-api|config|database|graph|health|inventory|inventory-import|logging|mcp|metrics|openapi|rate-limit|sbom|settings)([./]|$)|^src/scanner/(scanner\\.|scan-upload|worker/|dto/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'persistence-private',
      comment:
        "A module's persistence/ (entities, repositories, SQL) is its own: other modules go through its services. " +
        'Only src/database/entities.ts, the entity registry, lists every entity.',
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '^src/database/entities\\.ts$' },
      to: { path: '^src/[^/]+/persistence/', pathNot: '^src/$1/persistence/' },
    },
    {
      name: 'engine-framework-free',
      comment:
        'The scanner engine runs in the CLI and in worker threads: no NestJS, no TypeORM, no server module. ' +
        "The judge's Nest module is the one adapter inside it.",
      severity: 'error',
      from: { path: ENGINE, pathNot: ['^src/scanner/judge/judge\\.module(\\.spec)?\\.ts$'] },
      to: { path: ['^(node_modules/)?(@nestjs|typeorm)(/|$)', SERVER_MODULES] },
    },
    {
      name: 'server-not-cli',
      comment: 'The server never imports the CLI (the CLI may use the server code, not the reverse).',
      severity: 'error',
      from: { path: SERVER_MODULES },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles: a cycle makes load order matter and two modules one. Cycles closed only by ' +
        '`import type` are erased at compile time and do not count.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
