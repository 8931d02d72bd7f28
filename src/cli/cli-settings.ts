import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, UsageError, type CliIo } from './cli-io';

/**
 * Where the CLI finds its server and key. The one place of the CLI that reads environment
 * variables (the server's own settings live in src/config). Precedence: flag, then environment,
 * then the config file, then the default.
 *
 *   BULWARK_SERVER     base URL of the service (default http://localhost:3000)
 *   BULWARK_API_KEY    bearer key (bwk_…) for remote scans, sbom and whoami
 *   BULWARK_CONFIG     path of the config file (default $XDG_CONFIG_HOME/bulwark/config.json,
 *                      else ~/.config/bulwark/config.json): {"server": "…", "api_key": "bwk_…"}
 */
export const DEFAULT_SERVER = 'http://localhost:3000';

export interface RemoteSettings {
  server: string;
  apiKey: string | null;
  /** Human description of where the key came from, for error messages (never the key itself). */
  keySource: string;
  configPath: string;
  warnings: string[];
}

interface ConfigFile {
  server?: unknown;
  api_key?: unknown;
}

export function configPath(io: Pick<CliIo, 'env' | 'homedir'>): string {
  if (io.env.BULWARK_CONFIG) return io.env.BULWARK_CONFIG;
  const base = io.env.XDG_CONFIG_HOME || join(io.homedir, '.config');
  return join(base, 'bulwark', 'config.json');
}

function readConfigFile(path: string, warnings: string[]): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read the config file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`The config file ${path} is not valid JSON.`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError(`The config file ${path} must hold a JSON object.`);
  const cfg = parsed as ConfigFile;
  try {
    // A key in a file others can read is a key others can use.
    if (cfg.api_key !== undefined && process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
      warnings.push(`Warning: ${path} holds an API key and is readable by other users; run: chmod 600 ${path}`);
    }
  } catch {
    // stat failing right after a successful read is not worth failing the command
  }
  return cfg;
}

export function normaliseServer(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${source} must be an http(s) URL; got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${source} must be an http(s) URL; got "${raw}"`);
  if (url.username || url.password) throw new UsageError(`${source} must not carry credentials; use BULWARK_API_KEY`);
  return url.toString().replace(/(?<!\/)\/+$/, '');
}

export function resolveRemoteSettings(io: Pick<CliIo, 'env' | 'homedir'>, serverFlag: string | undefined): RemoteSettings {
  const path = configPath(io);
  const warnings: string[] = [];
  const file = readConfigFile(path, warnings);
  const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

  let server: string;
  if (serverFlag) server = normaliseServer(serverFlag, '--server');
  else if (str(io.env.BULWARK_SERVER)) server = normaliseServer(str(io.env.BULWARK_SERVER)!, 'BULWARK_SERVER');
  else if (str(file.server)) server = normaliseServer(str(file.server)!, `"server" in ${path}`);
  else server = DEFAULT_SERVER;

  const envKey = str(io.env.BULWARK_API_KEY);
  const fileKey = str(file.api_key);
  const apiKey = envKey ?? fileKey;
  const keySource = envKey ? 'BULWARK_API_KEY' : fileKey ? `"api_key" of ${path}` : `BULWARK_API_KEY or "api_key" in ${path}`;
  return { server, apiKey, keySource, configPath: path, warnings };
}

export function requireKey(s: RemoteSettings): string {
  if (!s.apiKey) {
    throw new CliError(
      `No API key. Set BULWARK_API_KEY, or put {"api_key": "bwk_…"} in ${s.configPath} (chmod 600). Create a key with: npx bulwark keys create --tenant <slug> --scopes scan`,
    );
  }
  return s.apiKey;
}
