import { Logger } from '@nestjs/common';
import { NotFoundError, PayloadTooLargeError, RateLimitedError, ServiceUnavailableError, ValidationFailedError } from '../../common/errors';
import { runTool, TOOL_ERROR_META_KEY, toolError, toolSuccess } from './tool-result';

describe('tool results', () => {
  it('success: structured content plus the same JSON as text', () => {
    expect(toolSuccess({ a: 1 })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
  });

  it('maps domain errors to the REST status and detail', () => {
    expect(toolError(new NotFoundError('Application 7 not found'))).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'HTTP 404 Not Found: Application 7 not found' }],
      _meta: { [TOOL_ERROR_META_KEY]: { status: 404, detail: 'Application 7 not found' } },
    });
    expect(toolError(new PayloadTooLargeError('Upload exceeds a limit: x.')).content[0]).toEqual({
      type: 'text',
      text: 'HTTP 413 Payload Too Large: Upload exceeds a limit: x.',
    });
  });

  it('422: the issue list in _meta, flattened in the text', () => {
    const issues = [{ loc: ['arguments', 'filter', 0, 'value'], msg: 'unknown tier', type: 'value_error.enum' }];
    const out = toolError(new ValidationFailedError(issues));
    expect(out._meta![TOOL_ERROR_META_KEY]).toEqual({ status: 422, detail: issues });
    expect(out.content[0]).toEqual({ type: 'text', text: 'HTTP 422 Unprocessable Entity: arguments.filter.0.value: unknown tier' });
  });

  it('capacity and rate limits carry retry_after_seconds; a 503 without Retry-After has none', () => {
    expect(toolError(new ServiceUnavailableError('Scan capacity is saturated; retry later.', 5))).toMatchObject({
      content: [{ text: 'HTTP 503 Service Unavailable: Scan capacity is saturated; retry later. Retry after 5 seconds.' }],
      _meta: { [TOOL_ERROR_META_KEY]: { status: 503, retry_after_seconds: 5 } },
    });
    expect(toolError(new RateLimitedError('Rate limit exceeded: judge', 12))._meta![TOOL_ERROR_META_KEY]).toMatchObject({
      status: 429,
      retry_after_seconds: 12,
    });
    expect(toolError(new ServiceUnavailableError('Scanner unavailable'))._meta![TOOL_ERROR_META_KEY]).toEqual({ status: 503, detail: 'Scanner unavailable' });
  });

  it('unexpected errors: a bare 500, the message logged but never returned', async () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const out = await runTool(async () => {
      throw new Error('SELECT secret FROM somewhere');
    });
    expect(out).toMatchObject({ isError: true, content: [{ text: 'HTTP 500 Internal Server Error: Internal server error' }] });
    expect(JSON.stringify(out)).not.toContain('secret');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('SELECT secret'));
    log.mockRestore();
  });

  it('a database outage: 503 "Database unavailable", logged at warn with the driver code (as on REST)', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const out = toolError(Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' }));
    expect(out._meta![TOOL_ERROR_META_KEY]).toEqual({ status: 503, detail: 'Database unavailable' });
    expect(warn).toHaveBeenCalledWith('Database unavailable (ECONNREFUSED); answered 503');
    warn.mockRestore();
  });
});
