import { Body, Controller, Get, HttpCode, Module, Param, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Public } from '../../src/auth/auth.decorators';
import { TRAILING_SLASH } from '../../src/common/routing';
import { createTestApp, type TestApp } from '../support/create-test-app';

class ItemDto {
  @IsInt() qty!: number;
}
class ThingDto {
  @IsString() name!: string;
  @IsOptional() @IsArray() @IsInt({ each: true }) ids?: number[];
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ItemDto) items?: ItemDto[];
}
class PageQuery {
  @IsOptional() @IsInt() @Min(1) @Max(1000) limit?: number;
}

/** Test-only routes: strict routing and the error model, independent of any feature module. */
@Public()
@Controller()
class ThingsController {
  @Post(`test-things/${TRAILING_SLASH}`) @HttpCode(200) create(@Body() body: ThingDto) {
    return { handler: 'create', body };
  }
  @Post('test-things') @HttpCode(200) list() {
    return { handler: 'list' };
  }
  @Get('test-things/boom') boom(): never {
    throw new Error('secret internal detail at /srv/app.ts:12');
  }
  @Get('test-things/:id') get(@Param('id') id: number, @Query() q: PageQuery) {
    return { id, limit: q.limit ?? null };
  }
}
@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('routing and the error model (docs/errors.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [ThingsModule] });
  });
  afterAll(() => t.close());

  it('routes POST /x/ and POST /x to different handlers (strict routing)', async () => {
    const create = await t.http().post('/test-things/').send({ name: 'a' }).expect(200);
    expect(create.body.handler).toBe('create');
    const list = await t.http().post('/test-things').send({}).expect(200);
    expect(list.body.handler).toBe('list');
  });

  it('answers 422 with loc paths into body, nested arrays, query and path', async () => {
    const body = await t
      .http()
      .post('/test-things/')
      .send({ ids: [1, 'x'], items: [{ qty: 1 }, { qty: 'n' }] })
      .expect(422);
    const locs = body.body.detail.map((d: { loc: unknown[] }) => d.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'name'],
        ['body', 'ids'],
        ['body', 'items', 1, 'qty'],
      ]),
    );
    for (const d of body.body.detail) {
      expect(typeof d.msg).toBe('string');
      expect(typeof d.type).toBe('string');
    }
    const query = await t.http().get('/test-things/5?limit=5000').expect(422);
    expect(query.body.detail[0].loc).toEqual(['query', 'limit']);
    const path = await t.http().get('/test-things/abc').expect(422);
    expect(path.body.detail).toEqual([{ loc: ['path', 'id'], msg: expect.any(String), type: 'type_error.integer' }]);
    await t.http().get('/test-things/7?limit=3').expect(200, { id: 7, limit: 3 });
  });

  it('rejects a non-object JSON body with 422 and strips unknown fields', async () => {
    const arr = await t.http().post('/test-things/').send([1, 2]).expect(422);
    expect(arr.body.detail[0].loc).toEqual(['body']);
    const ok = await t.http().post('/test-things/').send({ name: 'n', extra: 'dropped' }).expect(200);
    expect(ok.body.body).toEqual({ name: 'n' });
  });

  it('answers 400 on malformed JSON', async () => {
    const res = await t.http().post('/test-things/').set('Content-Type', 'application/json').send('{"name": ').expect(400);
    expect(typeof res.body.detail).toBe('string');
  });

  it('answers 413 on a JSON body over the limit', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(t.config.jsonBodyLimitBytes + 10) });
    const res = await t.http().post('/test-things/').set('Content-Type', 'application/json').send(big).expect(413);
    expect(res.body.detail).toMatch(/limit/i);
  });

  it('answers 404 with a detail for unknown routes, in the service\'s own words (not Express\'s "Cannot GET")', async () => {
    for (const [method, path] of [
      ['get', '/no/such/route'],
      ['delete', '/api/nothing/here'],
      ['post', '/docs/nope'],
      ['put', '/test-things/5'],
    ] as const) {
      const res = await t.http()[method](path).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ detail: `No route for ${method.toUpperCase()} ${path}` });
    }
  });

  it('hides internals of unexpected errors behind a 500', async () => {
    const res = await t.http().get('/test-things/boom').expect(500);
    expect(res.body).toEqual({ detail: 'Internal server error' });
    expect(JSON.stringify(res.body)).not.toContain('/srv/app.ts');
  });
});
