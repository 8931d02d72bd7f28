import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { ValidationFailedError, type ValidationIssue } from '../errors';
import { classValidatorIssueType } from '../validation-issue-types';
import { withoutDangerousKeys } from '../security/dangerous-keys';
import { MAX_INT4 } from '../int4';

type Loc = ValidationIssue['loc'];

const LOCATION: Record<string, string | undefined> = { body: 'body', query: 'query', param: 'path' };
const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/** Options for class-validator: `value: true` so an absent field can be told apart (it is never sent back). */
export const VALIDATOR_OPTIONS = { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: true } } as const;

/**
 * Flattens class-validator's error tree into 422 issues (docs/errors.md) with exact `loc` paths, one issue
 * per location: an absent required field is "field required" (not every rule it fails), and a
 * present bad value reports the first rule as written in the DTO (class-validator lists the
 * rules of a property bottom-up, so that is the last one).
 */
export function toValidationIssues(errors: ValidationError[], base: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (error: ValidationError, path: Loc) => {
    const key = /^\d+$/.test(error.property) ? Number(error.property) : error.property;
    const loc = [...path, key];
    const rules = Object.entries(error.constraints ?? {});
    if (rules.length > 0 && error.value === undefined) {
      issues.push({ loc, msg: error.constraints?.missing ?? 'field required', type: 'value_error.missing' });
    } else if (rules.length > 0) {
      const [constraint, msg] = rules[rules.length - 1]!;
      issues.push({ loc, msg, type: classValidatorIssueType(constraint) });
    }
    for (const child of error.children ?? []) walk(child, loc);
  };
  errors.forEach((e) => walk(e, base));
  return issues;
}

/** Integer path parameter (ids are int4 in the database): anything else is a 422, not a 500. */
export function parseIntegerParam(value: unknown, name: string): number {
  if (typeof value === 'string' && /^\d{1,10}$/.test(value) && Number(value) <= MAX_INT4) return Number(value);
  throw new ValidationFailedError([{ loc: ['path', name], msg: `must be an integer from 0 to ${MAX_INT4}`, type: 'type_error.integer' }]);
}

/**
 * Global pipe: transforms and validates body, query and path by their DTO class. Unknown body
 * fields are stripped (docs/decisions/0014-error-model.md); failures become a 422 whose `loc` starts with
 * body|query|path. `number` path params must be integers.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const where = LOCATION[metadata.type];
    const metatype = metadata.metatype;
    if (!where || !metatype) return value;
    if (metatype === Number && metadata.type === 'param') return parseIntegerParam(value, metadata.data ?? 'param');
    if (PRIMITIVES.has(metatype)) return value;
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ValidationFailedError([{ loc: ['body'], msg: 'must be a JSON object', type: 'type_error.object' }]);
    }
    const instance = plainToInstance(metatype as new () => object, withoutDangerousKeys(value ?? {}) as object, {
      enableImplicitConversion: metadata.type !== 'body',
    });
    const errors = await validate(instance, VALIDATOR_OPTIONS);
    if (errors.length) throw new ValidationFailedError(toValidationIssues(errors, where === 'path' ? ['path'] : [where]));
    return instance;
  }
}
