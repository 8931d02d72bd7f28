import { CreateApplicationDto } from '../../applications/dto/application-input.dto';
import { ValidationFailedError } from '../errors';
import { RequestValidationPipe } from '../pipes/request-validation.pipe';
import { withoutDangerousKeys } from './dangerous-keys';

describe('withoutDangerousKeys', () => {
  it('drops __proto__, constructor and prototype at any depth and keeps everything else', () => {
    const parsed = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":[{"constructor":{"x":1},"c":"d"}],"e":{"prototype":{"f":2},"g":null}}') as unknown;
    expect(withoutDangerousKeys(parsed)).toEqual({ a: 1, b: [{ c: 'd' }], e: { g: null } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('bounds the depth it copies', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = { k: deep };
    expect(JSON.stringify(withoutDangerousKeys(deep))).not.toContain('leaf');
  });
});

describe('RequestValidationPipe with hostile keys (found by test/reliability/inventory-fuzz)', () => {
  const pipe = new RequestValidationPipe();
  const body = (json: string) => pipe.transform(JSON.parse(json), { type: 'body', metatype: CreateApplicationDto });

  it('a nested prototype.constructor no longer crashes the transformer (was a 500)', async () => {
    await expect(body('{"name":"a","prototype":{"constructor":{"x":1}}}')).resolves.toEqual(Object.assign(new CreateApplicationDto(), { name: 'a' }));
  });

  it('__proto__ is not copied onto the DTO instance', async () => {
    const dto = (await body('{"name":"a","__proto__":{"isAdmin":true}}')) as Record<string, unknown>;
    expect(dto.isAdmin).toBeUndefined();
    expect(Object.getPrototypeOf(dto)).toBe(CreateApplicationDto.prototype);
  });

  it('validation still reports the real problems', async () => {
    await expect(body('{"name":"","constructor":{}}')).rejects.toBeInstanceOf(ValidationFailedError);
  });
});
