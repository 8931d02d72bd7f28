import type { INestApplication } from '@nestjs/common';
import { TRAILING_SLASH } from '../common/routing';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Bulwark API')
    .setDescription(
      'Application inventory with CycloneDX 1.6 SBOMs, and a synchronous, stateless scanner for agent-targeting risk in AI-agent files. ' +
        'Every endpoint takes `Authorization: Bearer bwk_…`. Errors are `{"detail": …}`; see docs/errors.md.',
    )
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'bwk_<token>' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  // Trailing-slash routes are declared as `x/{/}` (see common/routing.ts); document them as `x/`.
  // The explorer renders the optional group `{/}` as `/`, giving `x//`: collapse that too.
  document.paths = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [path.split(TRAILING_SLASH).join('').replace(/\/\/$/, '/'), item]));
  return document;
}

/** UI at /docs (assets served locally from swagger-ui-dist: works offline), JSON at /docs/openapi.json. */
export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
}
