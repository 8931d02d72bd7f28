import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { exceptionToResponse, logErrorResponse } from './exception-to-response';

describe('exceptionToResponse: an unreachable database is a 503, never a 500', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it.each([
    ['ECONNREFUSED', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['admin shutdown (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['connection exception class 08', withCode('connection failure', '08006')],
    ['terminated connection', new Error('Connection terminated unexpectedly')],
    ['closed client', new Error('Client was closed and is not queryable')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['shutting down', new Error('the database system is shutting down')],
    ['wrapped by TypeORM', new QueryFailedError('SELECT 1', [], withCode('terminating connection due to administrator command', '57P01'))],
    ['in a cause chain', new Error('transaction failed', { cause: new Error('Connection terminated') })],
    ['runner released after its connection failed (next query)', new QueryRunnerProviderAlreadyReleasedError()],
    ['runner released after its connection failed (COMMIT)', new QueryRunnerAlreadyReleasedError()],
    ['dual-stack connect', Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), {})],
  ])('%s', (_name, err) => {
    const out = exceptionToResponse(err);
    expect(out).toEqual({
      status: 503,
      headers: {},
      body: { detail: 'Database unavailable' },
      unexpected: false,
      outage: expect.stringMatching(/^Database unavailable \(.+\)$/),
    });
    // The outage is logged at warn (not only as an info request line), naming the code, never the host.
    const lines: [string, string][] = [];
    logErrorResponse({ warn: (m: string) => lines.push(['warn', m]), error: (m: string) => lines.push(['error', m]) }, err, out);
    expect(lines).toEqual([['warn', expect.stringMatching(/^Database unavailable \(.+\); answered 503$/)]]);
    expect(lines[0][1]).not.toMatch(/127\.0\.0\.1|::1|5432/);
  });

  it('keeps other database errors as unexpected 500s without details', () => {
    const out = exceptionToResponse(new QueryFailedError('SELECT x', [], withCode('column "x" does not exist', '42703')));
    expect(out).toEqual({ status: 500, headers: {}, body: { detail: 'Internal server error' }, unexpected: true });
    const lines: [string, string][] = [];
    logErrorResponse({ warn: (m: string) => lines.push(['warn', m]), error: (m: string) => lines.push(['error', m]) }, new Error('boom'), out);
    expect(lines).toEqual([['error', expect.stringContaining('Error: boom')]]);
  });
});
