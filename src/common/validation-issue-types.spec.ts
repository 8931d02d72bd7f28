import 'reflect-metadata';
import { Length, validate } from 'class-validator';
import { ajvIssueType, classValidatorIssueType, ISSUE_TYPE_FORM } from './validation-issue-types';

describe('422 issue types: one vocabulary for both validators', () => {
  it('names a wrong JSON type type_error.<type> and a bad value value_error.<what>', () => {
    expect(classValidatorIssueType('isArray')).toBe('type_error.list');
    expect(ajvIssueType('type', { type: 'array' })).toBe('type_error.list');
    expect(classValidatorIssueType('isInt')).toBe('type_error.integer');
    expect(ajvIssueType('type', { type: 'integer' })).toBe('type_error.integer');
    expect(classValidatorIssueType('maxLength')).toBe('value_error.any_str.max_length');
    expect(ajvIssueType('maxLength', {})).toBe('value_error.any_str.max_length');
    expect(classValidatorIssueType('isIn')).toBe(ajvIssueType('enum', {}));
    expect(classValidatorIssueType('whitelistValidation')).toBe(ajvIssueType('additionalProperties', {}));
  });

  it('maps the constraint name class-validator really reports: @Length is isLength', async () => {
    class Named {
      @Length(1, 5) name!: string;
    }
    const [error] = await validate(Object.assign(new Named(), { name: '' }));
    expect(Object.keys(error!.constraints ?? {}).map(classValidatorIssueType)).toEqual(['value_error.any_str.length']);
  });

  it('keeps names it does not know in the same form', () => {
    for (const type of [classValidatorIssueType('isStrongPassword'), ajvIssueType('dependentRequired', {}), ajvIssueType('type', { type: 'fancyThing' })]) {
      expect(type).toMatch(ISSUE_TYPE_FORM);
    }
    expect(classValidatorIssueType('isStrongPassword')).toBe('value_error.is_strong_password');
  });
});
