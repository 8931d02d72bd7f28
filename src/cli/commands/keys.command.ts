import type { ApiKey } from '../../auth/api-keys.service';
import { ALL_SCOPES, type Scope } from '../../auth/principal';
import type { Tenant } from '../../auth/tenants.service';
import { TENANT_SLUG } from '../../config/app-config';
import { CliError, EXIT_OK, UsageError, type CliIo } from '../cli-io';
import { parseDuration } from '../duration';
import { columns, safeText } from '../output/terminal';
import { parse, withDatabase, type ViaServer } from './cli-database';

export const KEYS_HELP = `Usage:
  bulwark keys create --tenant <slug> [--name <n>] [--scopes a,b] [--expires-in 30d]
  bulwark keys list [--tenant <slug>] [--json]
  bulwark keys revoke <id>

Works on the database directly (DATABASE_URL; unset = the embedded PGlite in ./data/pglite).
The embedded database serves one process at a time: while a server has it open these commands
refuse and say how to go through the server instead. Pending migrations run first.

  create   creates the tenant if it does not exist; prints the token alone on the last stdout line
           (shown once: only its hash is stored). Scopes: ${ALL_SCOPES.join(', ')} (default inventory:read,scan).
           --expires-in takes m, h, d or w (90m, 12h, 30d, 2w); default: never expires.
  list     keys of one tenant, or of every tenant
  revoke   revokes a key by id (takes effect on servers within AUTH_CACHE_TTL_MS)
`;

const DEFAULT_SCOPES: Scope[] = ['inventory:read', 'scan'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const VIA_SERVER: ViaServer = {
  curl: (base) => [
    `curl -s -X POST -H "Authorization: Bearer $BULWARK_API_KEY" -H 'Content-Type: application/json' \\`,
    `  -d '{"name":"ops","scopes":["admin"]}' ${base}/api/admin/api-keys`,
  ],
  note: 'GET lists keys, DELETE /api/admin/api-keys/<id> revokes one',
};

function parseScopes(raw: string | undefined): Scope[] {
  if (raw === undefined) return DEFAULT_SCOPES;
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s as Scope));
  if (unknown.length || scopes.length === 0) throw new UsageError(`--scopes takes a comma-separated list of ${ALL_SCOPES.join(', ')}; got "${raw}"`);
  return [...new Set(scopes)] as Scope[];
}

const status = (k: ApiKey, now: Date): string => (k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active');
const iso = (d: Date | null): string => (d ? d.toISOString() : '-');

export function keyJson(k: ApiKey, tenantSlug: string, now = new Date()): Record<string, unknown> {
  return {
    id: k.id,
    tenant: tenantSlug,
    name: k.name,
    display_prefix: k.displayPrefix,
    scopes: k.scopes,
    status: status(k, now),
    created: k.createdAt.toISOString(),
    expires_at: k.expiresAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

async function create(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, { tenant: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' } });
  const tenant = values.tenant as string | undefined;
  if (!tenant) throw new UsageError('keys create needs --tenant <slug>');
  if (!TENANT_SLUG.test(tenant)) throw new UsageError('--tenant must be 1-100 characters of letters, digits, ".", "_" or "-", starting with a letter or digit');
  const name = ((values.name as string | undefined) ?? 'cli').trim();
  if (name.length < 1 || name.length > 255) throw new UsageError('--name must be 1-255 characters');
  const scopes = parseScopes(values.scopes as string | undefined);
  const expiresIn = values['expires-in'] as string | undefined;
  const expiresAt = expiresIn ? new Date(Date.now() + parseDuration(expiresIn)) : null;

  const created = await withDatabase(io, VIA_SERVER, async ({ apiKeys, tenants }) => {
    const t = await tenants.findOrCreate(tenant);
    return apiKeys.create({ tenantId: t.id, name, scopes, expiresAt, rateLimitPerMinute: null });
  });
  io.stdout(
    `Created API key ${created.key.id} "${safeText(name)}" for tenant ${tenant} (scopes: ${scopes.join(', ')}; expires: ${expiresAt ? expiresAt.toISOString() : 'never'}).\n` +
      'The token below is shown once; only its hash is stored.\n',
  );
  io.stdout(`${created.token}\n`);
  return EXIT_OK;
}

async function list(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, { tenant: { type: 'string' }, json: { type: 'boolean', default: false } });
  const slug = values.tenant as string | undefined;
  const rows = await withDatabase(io, VIA_SERVER, async ({ apiKeys, tenants }) => {
    const found = slug ? [await tenants.findBySlug(slug)].filter((t): t is Tenant => t !== null) : await tenants.list();
    if (slug && found.length === 0) throw new CliError(`No tenant "${slug}".`);
    const out: Record<string, unknown>[] = [];
    for (const t of found) for (const k of await apiKeys.list(t.id)) out.push(keyJson(k, t.slug));
    return out;
  });
  if (values.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT_OK;
  }
  if (rows.length === 0) {
    io.stdout('No API keys.\n');
    return EXIT_OK;
  }
  const header = ['ID', 'TENANT', 'NAME', 'PREFIX', 'SCOPES', 'STATUS', 'CREATED', 'EXPIRES', 'LAST USED'];
  const table = rows.map((r) =>
    [
      r.id,
      r.tenant,
      safeText(String(r.name), 40),
      r.display_prefix,
      (r.scopes as string[]).join(','),
      r.status,
      r.created,
      r.expires_at ?? '-',
      r.last_used_at ?? '-',
    ].map(String),
  );
  io.stdout(columns(header, table));
  return EXIT_OK;
}

async function revoke(argv: string[], io: CliIo): Promise<number> {
  const { positionals } = parse(argv, {}, true);
  if (positionals.length !== 1) throw new UsageError('keys revoke takes exactly one key id');
  const id = positionals[0];
  if (!UUID.test(id)) throw new CliError(`No API key with id "${safeText(id, 60)}" (ids are UUIDs; see \`bulwark keys list\`).`);
  const key = await withDatabase(io, VIA_SERVER, async ({ apiKeys }) => {
    const found = await apiKeys.findById(id);
    if (!found) throw new CliError(`No API key with id ${id}.`);
    const wasRevoked = found.revokedAt !== null;
    const revoked = await apiKeys.revoke(found.tenantId, id);
    return { revoked, wasRevoked };
  });
  io.stdout(
    key.wasRevoked ? `API key ${id} was already revoked (${iso(key.revoked.revokedAt)}).\n` : `Revoked API key ${id} "${safeText(key.revoked.name)}".\n`,
  );
  return EXIT_OK;
}

export async function runKeys(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
    io.stdout(KEYS_HELP);
    return sub ? EXIT_OK : 2;
  }
  switch (sub) {
    case 'create':
      return create(rest, io);
    case 'list':
      return list(rest, io);
    case 'revoke':
      return revoke(rest, io);
    default:
      throw new UsageError(`Unknown keys command "${safeText(sub, 40)}": use create, list or revoke`);
  }
}
