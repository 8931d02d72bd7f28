import { ApiProperty } from '@nestjs/swagger';
import { registerDecorator, type ValidationOptions } from 'class-validator';
import { ENVIRONMENTS } from '../../inventory/inventory-enums';
import type { SbomEnvironment } from '../application-bom.types';

/** Most code roots one request may name (an application has far fewer; this bounds the work). */
export const MAX_SBOM_CODEROOTS = 1000;

function rule(name: string, message: string, validate: (value: unknown) => boolean, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({ name, target: target.constructor, propertyName: propertyName as string, options: { message, ...options }, validator: { validate } });
}

/**
 * Body of the SBOM request (docs/sbom.md "Request"). Both keys must be present ("key present, value
 * may be null", docs/decisions/0014-error-model.md); the global pipe validates the body as sent, so an absent key is undefined here and a 422.
 */
export class SbomRequestDto {
  @ApiProperty({
    enum: ENVIRONMENTS,
    nullable: true,
    description: 'Required key. null = every observation (source and all deployments); a value = only packages seen deployed there.',
    example: 'production',
  })
  @rule('missing', 'field required (the key must be present; its value may be null)', (v) => v !== undefined)
  @rule('isIn', `environment must be one of ${ENVIRONMENTS.join(', ')}, or null`, (v) => v == null || (ENVIRONMENTS as readonly unknown[]).includes(v))
  environment!: SbomEnvironment | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    maxItems: MAX_SBOM_CODEROOTS,
    description: 'Required key. null or [] = every code root of the member services; otherwise `owner/repo:path` ids that must belong to the application.',
    example: ['acme/payments:services/api'],
  })
  @rule('missing', 'field required (the key must be present; its value may be null)', (v) => v !== undefined)
  @rule(
    'isArray',
    `coderoots must be null or an array of at most ${MAX_SBOM_CODEROOTS} strings`,
    (v) => v == null || (Array.isArray(v) && v.length <= MAX_SBOM_CODEROOTS && v.every((s) => typeof s === 'string')),
  )
  coderoots!: string[] | null;
}
