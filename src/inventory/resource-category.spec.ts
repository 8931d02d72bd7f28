import { categoryForResourceType } from './resource-category';

describe('categoryForResourceType', () => {
  it('derives a category from the resource type', () => {
    expect(categoryForResourceType('aws_s3_bucket')).toBe('storage');
    expect(categoryForResourceType('aws_rds_instance')).toBe('database');
    expect(categoryForResourceType('aws_lambda_function')).toBe('compute');
    expect(categoryForResourceType('aws_sqs_queue')).toBe('messaging');
    expect(categoryForResourceType('aws_iam_role')).toBe('identity');
    expect(categoryForResourceType('aws_lb')).toBe('network');
    expect(categoryForResourceType('aws_security_group')).toBe('network');
    expect(categoryForResourceType('something_else')).toBe('other');
  });
});
