import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * One rule for a property's whole value, reported as the constraint `name` (which sets the 422
 * issue type, src/common/validation-issue-types.ts) with `message`: one issue per bad value,
 * whatever part of the rule it breaks (stacked IsInt/Min/Max would each give their own type).
 */
export function Satisfies(
  name: string,
  check: (value: unknown) => boolean,
  message: string | ((args: ValidationArguments) => string),
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options },
      validator: { validate: check },
    });
}
