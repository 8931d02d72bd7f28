import { parseArgs } from 'node:util';
import { CliError, EXIT_OK, UsageError, type CliIo } from '../cli-io';
import { safeText } from '../output/terminal';
import { remoteCall } from './remote-call';

export const WHOAMI_HELP = `Usage: bulwark whoami [--server <url>] [--json]

Shows which tenant and key the configured credential resolves to, its scopes and rate budgets
(GET /api/cli/whoami, charged to the separate control-plane budget).
`;

interface Whoami {
  kind?: string;
  tenant_id?: string;
  scopes?: string[];
  api_key?: { id?: string; name?: string | null; display_prefix?: string | null; expires_at?: string | null };
  client_id?: string;
  rate_limits?: { api?: { limit?: number; window_seconds?: number }; control_plane?: { limit?: number; window_seconds?: number } };
}

export async function runWhoami(argv: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { server: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) {
    io.stdout(WHOAMI_HELP);
    return EXIT_OK;
  }
  const res = await remoteCall(io, values.server, { method: 'GET', path: '/api/cli/whoami' });
  if (values.json) {
    io.stdout(`${res.text.trim()}\n`);
    return EXIT_OK;
  }
  let w: Whoami;
  try {
    w = JSON.parse(res.text) as Whoami;
  } catch {
    throw new CliError('The server answered whoami with a body that is not JSON.');
  }
  const s = (v: unknown): string => safeText(String(v ?? '-'), 120);
  const lines = [`Tenant:   ${s(w.tenant_id)}`, `Kind:     ${s(w.kind)}`];
  if (w.api_key) {
    lines.push(`Key:      ${s(w.api_key.id)} "${s(w.api_key.name)}" (${s(w.api_key.display_prefix)}…)`, `Expires:  ${s(w.api_key.expires_at ?? 'never')}`);
  }
  if (w.client_id) lines.push(`Client:   ${s(w.client_id)}`);
  lines.push(`Scopes:   ${(w.scopes ?? []).map((x) => s(x)).join(', ') || '-'}`);
  const budget = (b?: { limit?: number; window_seconds?: number }): string => (b ? `${s(b.limit)} per ${s(b.window_seconds)} s` : '-');
  lines.push(`Budgets:  API ${budget(w.rate_limits?.api)}; control plane ${budget(w.rate_limits?.control_plane)}`);
  io.stdout(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
