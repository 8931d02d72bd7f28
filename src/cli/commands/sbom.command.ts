import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_INT4 } from '../../common/int4';
import { ENVIRONMENTS } from '../../inventory/inventory-enums';
import { CliError, EXIT_OK, UsageError, type CliIo } from '../cli-io';
import { safeText } from '../output/terminal';
import { remoteCall } from './remote-call';

export const SBOM_HELP = `Usage: bulwark sbom <application_id> [--environment <env>] [--coderoot <owner/repo:path>]… [-o <file>] [--server <url>]

Generates the application's CycloneDX 1.6 SBOM (POST /api/applications/{id}/sbom).
  --environment   ${ENVIRONMENTS.slice(0, -1).join(', ')} or
                  ${ENVIRONMENTS[ENVIRONMENTS.length - 1]} (default: every observation)
  --coderoot      limit to these code roots (repeatable; default: all of the application's)
  -o, --output    write the SBOM to a file (default: stdout)
`;

export async function runSbom(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        environment: { type: 'string' },
        coderoot: { type: 'string', multiple: true },
        output: { type: 'string', short: 'o' },
        server: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(SBOM_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1 || !/^\d{1,10}$/.test(positionals[0]) || Number(positionals[0]) > MAX_INT4) {
    throw new UsageError('sbom takes one application id (an integer), e.g. `bulwark sbom 42 -o sbom.json`');
  }
  // Both keys must be present in the body (docs/sbom.md "Request"); null means "all".
  const body = JSON.stringify({ environment: values.environment ?? null, coderoots: values.coderoot?.length ? values.coderoot : null });
  const res = await remoteCall(io, values.server, {
    method: 'POST',
    path: `/api/applications/${positionals[0]}/sbom`,
    body: () => body,
    headers: { 'content-type': 'application/json' },
  });
  let pretty: string;
  try {
    pretty = `${JSON.stringify(JSON.parse(res.text), null, 2)}\n`;
  } catch {
    throw new CliError('The server answered with an SBOM that is not JSON.');
  }
  if (values.output) {
    writeFileSync(resolve(io.cwd, values.output), pretty);
    io.stderr(`Wrote the SBOM of application ${positionals[0]} to ${safeText(values.output)}\n`);
  } else {
    io.stdout(pretty);
  }
  return EXIT_OK;
}
