import type { PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ValidationFailedError, type ValidationIssue } from '../errors';
import { withoutDangerousKeys } from '../security/dangerous-keys';
import { classValidatorIssueType } from '../validation-issue-types';
import { toValidationIssues, VALIDATOR_OPTIONS } from './request-validation.pipe';

/** An element DTO: its one property, `value`, carries the rules of one element of the array. */
export type ArrayItemClass<T> = new () => { value: T };

/** What a bare-array body holds and how many, and the words its 422 messages use. */
export interface ArrayBodyRules<T> {
  item: ArrayItemClass<T>;
  maxItems: number;
  /** Ends "must be an array of …" when the body is not an array, e.g. `integers`. */
  arrayOf: string;
  /** Ends "at most <maxItems> …" when the body is too long, e.g. `items`. */
  counted: string;
}

/**
 * Validates a request body that is a bare JSON array (the global RequestValidationPipe only knows
 * object bodies): not an array, then too long, each a single 422 issue at `["body"]`; otherwise
 * every element is checked against the element DTO and each bad one is reported at its index
 * (`["body", 3]`, or `["body", 3, "login"]` for a nested DTO). Returns the elements in order,
 * duplicates kept, so a later check can still name a request index.
 */
export class ArrayBodyPipe<T> implements PipeTransform<unknown, Promise<T[]>> {
  constructor(private readonly rules: ArrayBodyRules<T>) {}

  async transform(body: unknown): Promise<T[]> {
    const { item, maxItems, arrayOf, counted } = this.rules;
    if (!Array.isArray(body))
      throw new ValidationFailedError([{ loc: ['body'], msg: `must be an array of ${arrayOf}`, type: classValidatorIssueType('isArray') }]);
    if (body.length > maxItems)
      throw new ValidationFailedError([{ loc: ['body'], msg: `at most ${maxItems} ${counted}`, type: classValidatorIssueType('arrayMaxSize') }]);
    const issues: ValidationIssue[] = [];
    const values: T[] = [];
    for (const [index, element] of (withoutDangerousKeys(body) as unknown[]).entries()) {
      const instance = plainToInstance(item, { value: element });
      const errors = await validate(instance, VALIDATOR_OPTIONS);
      // The element's `value` is reported under its index in the body.
      for (const error of errors) error.property = String(index);
      issues.push(...toValidationIssues(errors, ['body']));
      values.push(instance.value);
    }
    if (issues.length) throw new ValidationFailedError(issues);
    return values;
  }
}
