import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ValidationFailedError, type ValidationIssue } from '../../common/errors';
import { toValidationIssues, VALIDATOR_OPTIONS } from '../../common/pipes/request-validation.pipe';

/**
 * Validates tool arguments with the same DTO class (class-validator rules, transforms) the REST
 * route uses for its query, so the two surfaces accept the same values. Issues are located under
 * `arguments` instead of `query`.
 */
export async function validateLikeRest<T extends object>(dto: new () => T, value: Record<string, unknown>): Promise<T> {
  const instance = plainToInstance(dto, value);
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length) throw new ValidationFailedError(toValidationIssues(errors, ['arguments']));
  return instance;
}

/**
 * Re-locates the issues of a validation error the REST layer words for its query or body
 * (`loc` starting `query` / `body`) under the tool arguments: query parameters are arguments of
 * the same name; `bodyAt` is where the body sits among the arguments (`["filter"]` →
 * `["arguments", "filter", 2]`; `[]` when its fields are the arguments themselves).
 */
export async function relocateIssues<T>(bodyAt: string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ValidationFailedError)) throw err;
    const issues: ValidationIssue[] = err.issues.map((i) => {
      if (i.loc[0] === 'body') return { ...i, loc: ['arguments', ...bodyAt, ...i.loc.slice(1)] };
      if (i.loc[0] === 'query') return { ...i, loc: ['arguments', ...i.loc.slice(1)] };
      return i;
    });
    throw new ValidationFailedError(issues);
  }
}

/** The JSON REST would send: dates as ISO strings, undefined dropped, class instances as plain data. */
export function asJson<T>(value: T): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
