import { safeText } from '../output/terminal';
import { errorDetail, type ApiResponse } from './api-client';

export interface FailureContext {
  /** Where the key came from, for the 401 hint (e.g. "BULWARK_API_KEY"). */
  keySource: string;
}

const retriesText = (n: number): string => (n === 1 ? '1 retry' : `${n} retries`);

/**
 * One clear sentence for a failed response. Server text is untrusted (it may come from a proxy)
 * and goes through safeText. Never includes the key.
 */
export function describeFailure(res: ApiResponse, ctx: FailureContext): string {
  const detail = errorDetail(res.text);
  const said = detail ? `: ${safeText(detail, 300)}` : '';
  const retried = res.retries ? ` after ${retriesText(res.retries)}` : '';
  const waitNote =
    res.gaveUp === 'retry_after_beyond_window'
      ? `; the server asked to wait ${Math.ceil((res.askedDelayMs ?? 0) / 1000)} s, beyond the 60 s retry window, so the CLI gave up`
      : res.gaveUp
        ? `; gave up${retried}`
        : '';
  switch (res.status) {
    case 401:
      return `The server rejected the API key (401${said}). Check the key in ${ctx.keySource}; create one with \`npx bulwark keys create --tenant <slug> --scopes scan\` or in the administration area (access → API keys).`;
    case 403:
      return detail
        ? `The API key is not allowed to do this (403${said}). Create a key with the needed scope, e.g. --scopes scan.`
        : `Blocked by the edge rate limit for this address (403 without a body)${retried ? `; backed off and retried${retried.replace(' after', '')} with the same key` : ''}. Wait a few minutes before scanning again.`;
    case 413:
      return `Rejected as too large (413${said}).`;
    case 429:
      return `Rate limited (429${said})${waitNote}.`;
    case 503:
      return res.headers.get('retry-after') !== null ? `Scan capacity saturated (503${said})${waitNote}.` : `Scanner unavailable (503${said})${waitNote}.`;
    default:
      return `HTTP ${res.status}${said || (res.text ? `: ${safeText(res.text, 200)}` : '')}${waitNote}.`;
  }
}
