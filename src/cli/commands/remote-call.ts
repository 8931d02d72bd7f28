import { CliError, type CliIo } from '../cli-io';
import { resolveRemoteSettings, requireKey } from '../cli-settings';
import { userAgent } from '../cli-version';
import { ApiClient, type ApiResponse, type RequestSpec } from '../http/api-client';
import { describeFailure } from '../http/describe-failure';

/**
 * One control-plane or read call (whoami, sbom) with the same client as scans: Retry-After on
 * 429/503, bounded cancellable backoff, clear messages. Returns the 200 response or throws.
 */
export async function remoteCall(io: CliIo, serverFlag: string | undefined, spec: RequestSpec): Promise<ApiResponse> {
  const settings = resolveRemoteSettings(io, serverFlag);
  for (const w of settings.warnings) io.stderr(`${w}\n`);
  const client = new ApiClient({
    baseUrl: settings.server,
    apiKey: requireKey(settings),
    signal: io.signal,
    userAgent: userAgent(),
    onRetry: (e) => io.stderr(`${e.status ?? 'network error'}: retrying in ${(e.delayMs / 1000).toFixed(1)} s (retry ${e.retry} of 3)\n`),
  });
  const res = await client.request(spec);
  if (res.status !== 200) throw new CliError(describeFailure(res, { keySource: settings.keySource }));
  return res;
}
