import { Writable } from 'node:stream';

export type LogFormat = 'auto' | 'json' | 'pretty';

/** `auto`: people read a terminal, programs read everything else (a pipe, a file, a log collector). */
export function resolveLogFormat(setting: LogFormat, stdoutIsTty: boolean): 'json' | 'pretty' {
  return setting === 'auto' ? (stdoutIsTty ? 'pretty' : 'json') : setting;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

interface Line {
  level?: number;
  time?: number;
  context?: string;
  msg?: string;
  req?: { id?: string; method?: string; path?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { stack?: string; message?: string };
}

/**
 * One pino JSON line as one human line: `12:03:04.567 WARN  [Context] message`, request lines as
 * `GET /path 200 12 ms (request id)`. A line that is not pino JSON is passed through unchanged.
 */
export function formatLogLine(json: string): string {
  let l: Line;
  try {
    l = JSON.parse(json) as Line;
  } catch {
    return json;
  }
  if (typeof l !== 'object' || l === null) return json;
  const time = typeof l.time === 'number' ? new Date(l.time).toISOString().slice(11, 23) : '';
  const level = (LEVELS[l.level ?? 30] ?? String(l.level)).padEnd(5);
  const context = l.context ? `[${l.context}] ` : '';
  let text = l.msg ?? '';
  if (l.req?.method && l.res?.statusCode !== undefined) {
    const ms = typeof l.responseTime === 'number' ? ` ${Math.round(l.responseTime)} ms` : '';
    text = `${l.req.method} ${l.req.path ?? ''} ${l.res.statusCode}${ms}${l.req.id ? ` (${l.req.id})` : ''}`;
  }
  const stack = l.err?.stack ? `\n${l.err.stack}` : '';
  return `${time} ${level} ${context}${text}${stack}`;
}

/** A pino destination that writes formatLogLine's lines to `out` (the terminal). */
export function prettyDestination(out: { write(text: string): unknown }): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) out.write(`${formatLogLine(line)}\n`);
      done();
    },
  });
}
