import { join } from 'node:path';
import { ENVIRONMENTS } from '../../inventory/inventory-enums';
import { MAX_INT4 } from '../../common/int4';
import { UsageError, type CliIo } from '../cli-io';
import { runSbom, SBOM_HELP } from './sbom.command';

const io = (): CliIo => ({
  stdout: () => undefined,
  stderr: () => undefined,
  stdoutIsTty: false,
  stderrIsTty: false,
  env: { BULWARK_CONFIG: join(__dirname, 'no-such-config.json') },
  cwd: __dirname,
  homedir: __dirname,
  signal: new AbortController().signal,
});

describe('bulwark sbom', () => {
  // The CLI bundle may not load src/applications (scripts/build-cli.ts), so the help spells the list out.
  it("help names the inventory's environments, in their order", () => {
    const listed = /^ {2}--environment\s+([\s\S]*?)\s+\(default/m.exec(SBOM_HELP)![1].split(/,\s+|\s+or\s+/);
    expect(listed).toEqual([...ENVIRONMENTS]);
  });

  it('takes application ids up to the largest int4', async () => {
    await expect(runSbom([String(MAX_INT4 + 1)], io())).rejects.toBeInstanceOf(UsageError);
    // The largest id passes the argument check and fails later, for want of an API key.
    await expect(runSbom([String(MAX_INT4)], io())).rejects.toThrow(/No API key/);
  });
});
