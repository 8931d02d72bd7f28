/**
 * One vocabulary for the `type` of a 422 issue (docs/errors.md): `type_error.<expected type>` when a
 * value has the wrong JSON type, `value_error.<what>` when it has the right type and a bad value.
 * class-validator's constraint names and Ajv's keywords are both translated here.
 */

const EXPECTED_TYPE: Record<string, string> = {
  array: 'list',
  boolean: 'bool',
  integer: 'integer',
  number: 'number',
  object: 'object',
  string: 'string',
  null: 'none',
};

const CLASS_VALIDATOR: Record<string, string> = {
  isInt: 'type_error.integer',
  isNumber: 'type_error.number',
  isString: 'type_error.string',
  isArray: 'type_error.list',
  isBoolean: 'type_error.bool',
  isObject: 'type_error.object',
  nestedValidation: 'type_error.object',
  isUUID: 'type_error.uuid',
  isDateString: 'type_error.datetime',
  isISO8601: 'type_error.datetime',
  isIn: 'value_error.enum',
  isEnum: 'value_error.enum',
  min: 'value_error.number.not_ge',
  max: 'value_error.number.not_le',
  isPositive: 'value_error.number.not_gt',
  minLength: 'value_error.any_str.min_length',
  maxLength: 'value_error.any_str.max_length',
  // @Length reports the constraint as isLength.
  isLength: 'value_error.any_str.length',
  matches: 'value_error.str.regex',
  isNotEmpty: 'value_error.blank',
  arrayMinSize: 'value_error.list.min_items',
  arrayNotEmpty: 'value_error.list.min_items',
  arrayMaxSize: 'value_error.list.max_items',
  arrayUnique: 'value_error.list.unique_items',
  whitelistValidation: 'value_error.extra',
  isDefined: 'value_error.missing',
};

const AJV: Record<string, string> = {
  maxLength: 'value_error.any_str.max_length',
  minLength: 'value_error.any_str.min_length',
  maximum: 'value_error.number.not_le',
  minimum: 'value_error.number.not_ge',
  exclusiveMaximum: 'value_error.number.not_lt',
  exclusiveMinimum: 'value_error.number.not_gt',
  enum: 'value_error.enum',
  const: 'value_error.const',
  maxItems: 'value_error.list.max_items',
  minItems: 'value_error.list.min_items',
  uniqueItems: 'value_error.list.unique_items',
  pattern: 'value_error.str.regex',
  format: 'value_error.format',
  additionalProperties: 'value_error.extra',
  required: 'value_error.missing',
};

/** `fooBar` → `foo_bar`, for names neither table knows (custom constraints, rare keywords). */
const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The issue type of a failed class-validator constraint. */
export function classValidatorIssueType(constraint: string): string {
  return CLASS_VALIDATOR[constraint] ?? `value_error.${snake(constraint)}`;
}

/** The issue type of an Ajv error (`params.type` names the expected type of a `type` error). */
export function ajvIssueType(keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'type') {
    const expected = String(params.type ?? '').split(',')[0];
    return `type_error.${EXPECTED_TYPE[expected] ?? snake(expected)}`;
  }
  return AJV[keyword] ?? `value_error.${snake(keyword)}`;
}

/** What every issue type looks like, whichever validator produced it. */
export const ISSUE_TYPE_FORM = /^(?:type|value)_error(?:\.[a-z0-9_]+)+$/;
