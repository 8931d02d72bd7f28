import { Logger, type ArgumentsHost } from '@nestjs/common';
import { AllExceptionsFilter } from './all-exceptions.filter';

describe('AllExceptionsFilter logging', () => {
  function host() {
    const res = {
      headersSent: false,
      statusCode: 0,
      body: undefined as unknown,
      status(s: number) {
        this.statusCode = s;
        return this;
      },
      set() {
        return this;
      },
      json(b: unknown) {
        this.body = b;
      },
      end() {},
    };
    const http = { getResponse: () => res, getRequest: () => ({ method: 'GET', url: '/api/applications', originalUrl: '/api/applications' }) };
    return { res, host: { switchToHttp: () => http } as unknown as ArgumentsHost };
  }

  it('a request that finds the database unreachable answers 503 and is logged at warn, not only as a request line', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { res, host: h } = host();
    new AllExceptionsFilter().catch(new Error('Connection terminated unexpectedly'), h);
    expect(res.statusCode).toBe(503);
    expect(res.body).toEqual({ detail: 'Database unavailable' });
    expect(warn).toHaveBeenCalledWith('Database unavailable (Connection terminated); answered 503');
    warn.mockRestore();
  });
});
