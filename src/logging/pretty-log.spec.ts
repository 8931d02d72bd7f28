import { loadConfig } from '../config/app-config';
import { formatLogLine, prettyDestination, resolveLogFormat } from './pretty-log';

describe('log format: human-readable on a terminal, JSON otherwise', () => {
  it('auto picks pretty on a TTY and JSON elsewhere; an explicit setting wins', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('LOG_FORMAT is validated, default auto', () => {
    expect(loadConfig({}, []).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }, []).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' }, [])).toThrow(/LOG_FORMAT/);
  });

  const time = Date.UTC(2026, 10, 26, 7, 3, 4, 567);

  it('formats a context message, a request line and an error with its stack', () => {
    expect(formatLogLine(JSON.stringify({ level: 40, time, context: 'ScanPool', msg: 'Scan worker crashed' }))).toBe(
      '07:03:04.567 WARN  [ScanPool] Scan worker crashed',
    );
    expect(
      formatLogLine(
        JSON.stringify({
          level: 30,
          time,
          req: { id: 'r1', method: 'GET', path: '/api/applications' },
          res: { statusCode: 200 },
          responseTime: 12.4,
          msg: 'request completed',
        }),
      ),
    ).toBe('07:03:04.567 INFO  GET /api/applications 200 12 ms (r1)');
    expect(formatLogLine(JSON.stringify({ level: 50, time, msg: 'failed', err: { stack: 'Error: x\n    at y' } }))).toBe(
      '07:03:04.567 ERROR failed\nError: x\n    at y',
    );
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(formatLogLine('plain text')).toBe('plain text');
    expect(formatLogLine('5')).toBe('5');
  });

  it('the destination writes one formatted line per JSON line', () => {
    const out: string[] = [];
    const dest = prettyDestination({ write: (t: string) => out.push(t) });
    dest.write(`${JSON.stringify({ level: 30, time, msg: 'a' })}\n${JSON.stringify({ level: 60, time, msg: 'b' })}\n`);
    expect(out).toEqual(['07:03:04.567 INFO  a\n', '07:03:04.567 FATAL b\n']);
  });
});
