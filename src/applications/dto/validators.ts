import type { ValidationArguments, ValidationOptions } from 'class-validator';
import { Satisfies } from '../../common/property-rule';

/**
 * "Key present, value may be null" (docs/decisions/0014-error-model.md): the key must be in the body. Pair it with
 * NullOr(...) for the value's own rule; together they tell absent (422) from null (accepted).
 */
export function KeyPresent(options?: ValidationOptions): PropertyDecorator {
  return Satisfies('missing', (value) => value !== undefined, 'field required (the key must be present; its value may be null)', options);
}

/** The value is null/absent, or satisfies `check`. */
export function NullOr(name: string, check: (value: unknown) => boolean, message: string): PropertyDecorator {
  return Satisfies(
    name,
    (value) => value === null || value === undefined || check(value),
    (args: ValidationArguments) => `${args.property} ${message}`,
  );
}
