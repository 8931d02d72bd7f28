import { METHODS } from 'node:http';
import type { RouteSpec } from './rate-limit.policy';

export interface CompiledRoute<T> {
  method: string;
  regex: RegExp;
  paramNames: string[];
  value: T;
}

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

/** `/api/secrets/:secret_id/recheck` → case-insensitive regex with an optional trailing slash. */
export function compileRoute<T>(route: RouteSpec, value: T): CompiledRoute<T> {
  const paramNames: string[] = [];
  const trimmed = route.path.replace(/(?<!\/)\/+$/, '');
  const source = trimmed
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        paramNames.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { method: route.method, regex: new RegExp(`^${source}/?$`, 'i'), paramNames, value };
}

/** Every method Node's HTTP parser knows, spelled as it hands them: upper case already. */
const UPPER_CASE_METHODS: ReadonlySet<string> = new Set(METHODS);

/**
 * The method in upper case ('' when absent). Hot path: toUpperCase allocates a new string on every
 * call, so the parser's spellings are answered as they are; other callers' get converted.
 */
export function upperCaseMethod(method: string | undefined): string {
  if (method === undefined) return '';
  return UPPER_CASE_METHODS.has(method) ? method : method.toUpperCase();
}

/** The path of a raw request URL: query dropped, percent-escapes decoded where valid. */
export function requestPath(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  if (!path.includes('%')) return path;
  try {
    // A limit must not be dodged by spelling the path differently than the router that serves it.
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The one shared empty list of the limiter's hot path (no route, check, cooldown or hand-back
 * applies, which is most requests): answering with it allocates nothing. Frozen, so no caller can
 * fill it.
 */
export const NONE: readonly never[] = Object.freeze([]);

/**
 * Matches requests against a fixed set of routes before routing. Indexed by method, so a request
 * whose method has no rule costs one Map lookup.
 */
export class RouteTable<T> {
  private readonly byMethod = new Map<string, CompiledRoute<T>[]>();
  /** Per method, one alternation of every pattern: most requests match no rule and stop here. */
  private readonly anyByMethod = new Map<string, RegExp>();

  constructor(entries: readonly { route: RouteSpec; value: T }[]) {
    for (const e of entries) {
      const compiled = compileRoute(e.route, e.value);
      const list = this.byMethod.get(compiled.method) ?? [];
      list.push(compiled);
      this.byMethod.set(compiled.method, list);
    }
    for (const [method, list] of this.byMethod) {
      // Capture groups become non-capturing: only "does anything match" is asked here.
      const alternatives = list.map((r) => r.regex.source.replace(/\(\[/g, '(?:['));
      this.anyByMethod.set(method, new RegExp(alternatives.map((a) => `(?:${a})`).join('|'), 'i'));
    }
  }

  /** Every matching entry, in table order (a shared empty array when none: most requests). */
  match(method: string | undefined, path: string): readonly RouteMatch<T>[] {
    const upper = upperCaseMethod(method);
    // Express answers HEAD with the GET handler, so HEAD is limited like GET.
    const m = upper === 'HEAD' ? 'GET' : upper;
    const any = this.anyByMethod.get(m);
    if (any === undefined || !any.test(path)) return NONE;
    const list = this.byMethod.get(m)!;
    const out: RouteMatch<T>[] = [];
    for (const r of list) {
      const m = r.regex.exec(path);
      if (m === null) continue;
      const params: Record<string, string> = {};
      r.paramNames.forEach((name, i) => (params[name] = m[i + 1]!));
      out.push({ value: r.value, params });
    }
    return out;
  }
}
