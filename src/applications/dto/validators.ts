import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * "Key present, value may be null" (docs/decisions/0014-error-model.md): the key must be in the body. Pair it with
 * NullOr(...) for the value's own rule; together they tell absent (422) from null (accepted).
 */
export function KeyPresent(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'missing',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'field required (the key must be present; its value may be null)', ...options },
      validator: { validate: (value: unknown) => value !== undefined },
    });
}

/** The value is null/absent, or satisfies `check`. */
export function NullOr(name: string, check: (value: unknown) => boolean, message: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => `${args.property} ${message}` },
      validator: { validate: (value: unknown) => value === null || value === undefined || check(value) },
    });
}
