import { MAX_RATE_LIMIT_PER_MINUTE, type Tenant, type TenantLimits, type TenantView } from '../../auth/tenants.service';
import { CliError, EXIT_OK, UsageError, type CliIo } from '../cli-io';
import { columns, safeText } from '../output/terminal';
import { parse, withDatabase, type Db, type ViaServer } from './cli-database';

export const TENANTS_HELP = `Usage:
  bulwark tenants list [--json]
  bulwark tenants show <slug> [--json]
  bulwark tenants set <slug> [--rate-limit <n>|default] [--oauth-mcp-rate-limit <n>|default] [--json]

Tenant limits, in requests per minute (docs/rate-limits.md). Works on the database directly, like
\`bulwark keys\` (DATABASE_URL; unset = the embedded PGlite in ./data/pglite; refuses while a server
holds the embedded database, and says how to go through the server instead).

  --rate-limit            budget of each API key of the tenant that has no limit of its own
                          (REST and API-key MCP calls share it)
  --oauth-mcp-rate-limit  limit of each OAuth client + user of the tenant on /mcp
  Values: 1-${MAX_RATE_LIMIT_PER_MINUTE}, or "default" to go back to the service default. A running server
  applies a change made here within AUTH_CACHE_TTL_MS (its cache of keys and tenants).
`;

const VIA_SERVER: ViaServer = {
  curl: (base) => [
    `curl -s -X PATCH -H "Authorization: Bearer $BULWARK_API_KEY" -H 'Content-Type: application/json' \\`,
    `  -d '{"rate_limit_per_minute":5000}' ${base}/api/admin/tenant`,
  ],
  note: 'GET shows the tenant; an admin key reaches its own tenant only',
};

/** `5000` → 5000, `default` → null; anything else is a usage error naming the option. */
function parseLimit(option: string, raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'default') return null;
  const n = /^\d{1,8}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_RATE_LIMIT_PER_MINUTE))
    throw new UsageError(
      `--${option} takes a whole number of requests per minute from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or "default"; got "${safeText(raw, 40)}"`,
    );
  return n;
}

function slugArgument(command: string, positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`tenants ${command} takes exactly one tenant slug`);
  return positionals[0]!;
}

async function findTenant(db: Db, slug: string): Promise<Tenant> {
  const tenant = await db.tenants.findBySlug(slug);
  if (!tenant) throw new CliError(`No tenant "${safeText(slug, 100)}" (see \`bulwark tenants list\`; \`bulwark keys create --tenant <slug>\` creates one).`);
  return tenant;
}

const limitText = (own: number | null, effective: number): string => (own === null ? `${effective} (default)` : `${effective} (tenant)`);

function describeTenant(v: TenantView): string {
  return [
    `Tenant ${v.slug} (${safeText(v.name, 100)}), id ${v.id}`,
    `  API-key budget per minute (keys without their own limit): ${limitText(v.rate_limit_per_minute, v.effective.rate_limit_per_minute)}`,
    `  OAuth MCP limit per minute (per client + user):           ${limitText(v.oauth_mcp_rate_limit_per_minute, v.effective.oauth_mcp_rate_limit_per_minute)}`,
  ].join('\n');
}

async function list(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, { json: { type: 'boolean', default: false } });
  const views = await withDatabase(io, VIA_SERVER, async (db) => {
    const service = db.tenants;
    return (await service.list()).map((t) => service.view(t));
  });
  if (values.json) {
    io.stdout(`${JSON.stringify(views, null, 2)}\n`);
    return EXIT_OK;
  }
  if (views.length === 0) {
    io.stdout('No tenants.\n');
    return EXIT_OK;
  }
  const header = ['SLUG', 'ID', 'API-KEY BUDGET/MIN', 'OAUTH MCP/MIN'];
  const table = views.map((v) => [
    safeText(v.slug, 100),
    v.id,
    limitText(v.rate_limit_per_minute, v.effective.rate_limit_per_minute),
    limitText(v.oauth_mcp_rate_limit_per_minute, v.effective.oauth_mcp_rate_limit_per_minute),
  ]);
  io.stdout(columns(header, table));
  return EXIT_OK;
}

async function show(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean', default: false } }, true);
  const slug = slugArgument('show', positionals);
  const view = await withDatabase(io, VIA_SERVER, async (db) => db.tenants.view(await findTenant(db, slug)));
  io.stdout(values.json ? `${JSON.stringify(view, null, 2)}\n` : `${describeTenant(view)}\n`);
  return EXIT_OK;
}

async function set(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { 'rate-limit': { type: 'string' }, 'oauth-mcp-rate-limit': { type: 'string' }, json: { type: 'boolean', default: false } },
    true,
  );
  const slug = slugArgument('set', positionals);
  const limits: Partial<TenantLimits> = {
    rateLimitPerMinute: parseLimit('rate-limit', values['rate-limit'] as string | undefined),
    oauthMcpRateLimitPerMinute: parseLimit('oauth-mcp-rate-limit', values['oauth-mcp-rate-limit'] as string | undefined),
  };
  if (limits.rateLimitPerMinute === undefined && limits.oauthMcpRateLimitPerMinute === undefined)
    throw new UsageError('tenants set needs --rate-limit and/or --oauth-mcp-rate-limit');
  const view = await withDatabase(io, VIA_SERVER, async (db) => {
    const service = db.tenants;
    const tenant = await findTenant(db, slug);
    return service.view(await service.setLimits(tenant.id, limits));
  });
  io.stdout(values.json ? `${JSON.stringify(view, null, 2)}\n` : `Updated.\n${describeTenant(view)}\n`);
  return EXIT_OK;
}

export async function runTenants(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
    io.stdout(TENANTS_HELP);
    return sub ? EXIT_OK : 2;
  }
  switch (sub) {
    case 'list':
      return list(rest, io);
    case 'show':
      return show(rest, io);
    case 'set':
      return set(rest, io);
    default:
      throw new UsageError(`Unknown tenants command "${safeText(sub, 40)}": use list, show or set`);
  }
}
