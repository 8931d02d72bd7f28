import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { SERVICE_IDS_BODY } from '../../applications/dto/application-input.dto';
import { PLATFORM_IDS_BODY } from '../../graph/dto/graph.dto';
import { ValidationFailedError, type ValidationIssue } from '../errors';
import { MAX_INT4 } from '../int4';
import { ArrayBodyPipe } from './array-body.pipe';

/** The 422 issues a pipe rejects `body` with (fails the test if it accepts it). */
async function issuesOf(pipe: ArrayBodyPipe<unknown>, body: unknown): Promise<ValidationIssue[]> {
  const error: unknown = await pipe.transform(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationFailedError);
  return (error as ValidationFailedError).issues;
}

const serviceIds = new ArrayBodyPipe(SERVICE_IDS_BODY);
const platformIds = new ArrayBodyPipe(PLATFORM_IDS_BODY);
const BAD_ID = { msg: 'must be an integer from 0 to 2147483647', type: 'type_error.integer' };
const BAD_PLATFORM_ID = { msg: 'must be a platform id (string of 1 to 512 characters)', type: 'type_error.string' };

// The messages below are those of the hand parsers these bodies had before (test/e2e/applications.e2e-spec.ts and test/e2e/graph.e2e-spec.ts).
describe('ArrayBodyPipe', () => {
  it('returns a valid body element for element, in order and with duplicates kept', async () => {
    await expect(serviceIds.transform([101, 0, 101, MAX_INT4])).resolves.toEqual([101, 0, 101, MAX_INT4]);
    await expect(serviceIds.transform([])).resolves.toEqual([]);
    await expect(platformIds.transform(['arn:b', 'arn:a', 'arn:b', 'x'.repeat(512)])).resolves.toEqual(['arn:b', 'arn:a', 'arn:b', 'x'.repeat(512)]);
  });

  it('accepts exactly maxItems elements and rejects one more with a single issue at ["body"]', async () => {
    await expect(serviceIds.transform(Array.from({ length: 10_000 }, (_, i) => i))).resolves.toHaveLength(10_000);
    expect(
      await issuesOf(
        serviceIds,
        Array.from({ length: 10_001 }, () => 'not even checked'),
      ),
    ).toEqual([{ loc: ['body'], msg: 'at most 10000 items', type: 'value_error.list.max_items' }]);
    expect(
      await issuesOf(
        platformIds,
        Array.from({ length: 10_001 }, () => 'r'),
      ),
    ).toEqual([{ loc: ['body'], msg: 'at most 10000 platform ids', type: 'value_error.list.max_items' }]);
  });

  it('rejects a body that is not an array with a single issue at ["body"]', async () => {
    for (const body of [{ ids: [1] }, null, undefined, 'x', 5, true]) {
      expect(await issuesOf(serviceIds, body)).toEqual([{ loc: ['body'], msg: 'must be an array of integers', type: 'type_error.list' }]);
      expect(await issuesOf(platformIds, body)).toEqual([{ loc: ['body'], msg: 'must be an array of platform ids (strings)', type: 'type_error.list' }]);
    }
  });

  it("reports every bad element at its index, one issue each, with the element rule's type and message", async () => {
    expect(await issuesOf(serviceIds, [1, '1', 1.5, -1, MAX_INT4, MAX_INT4 + 1, true, null, {}, []])).toEqual(
      [1, 2, 3, 5, 6, 7, 8, 9].map((i) => ({ loc: ['body', i], ...BAD_ID })),
    );
    expect(await issuesOf(platformIds, ['ok', 5, '', null, {}, [], 'x'.repeat(513), 'x'.repeat(512)])).toEqual(
      [1, 2, 3, 4, 5, 6].map((i) => ({ loc: ['body', i], ...BAD_PLATFORM_ID })),
    );
  });

  describe('with an element DTO that nests an object', () => {
    class MemberDto {
      @IsString()
      @Length(1, 8)
      login!: string;
    }
    class MemberItem {
      @IsObject()
      @ValidateNested()
      @Type(() => MemberDto)
      value!: MemberDto;
    }
    const members = new ArrayBodyPipe({ item: MemberItem, maxItems: 3, arrayOf: 'members', counted: 'members' });

    it("returns DTO instances and reports a nested issue under the element's index", async () => {
      const [first] = await members.transform([{ login: 'ann', extra: 1 }]);
      expect(first).toBeInstanceOf(MemberDto);
      expect(first).toEqual({ login: 'ann' });
      expect(await issuesOf(members, [{ login: 'ann' }, { login: '' }, 7])).toEqual([
        { loc: ['body', 1, 'login'], msg: 'login must be longer than or equal to 1 characters', type: 'value_error.any_str.length' },
        { loc: ['body', 2], msg: 'nested property value must be either object or array', type: 'type_error.object' },
      ]);
    });

    it('drops prototype-reaching keys before transforming (a nested prototype.constructor crashed class-transformer)', async () => {
      const body = JSON.parse('[{"login":"ann","__proto__":{"isAdmin":true},"prototype":{"constructor":{"x":1}}}]') as unknown;
      const [member] = await members.transform(body);
      expect(member).toEqual({ login: 'ann' });
      expect((member as unknown as Record<string, unknown>).isAdmin).toBeUndefined();
    });
  });
});
