import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { TRAILING_SLASH } from '../common/routing';
import { documentErrorResponses } from './error-responses';

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
  documentErrorResponses(document);
  return document;
}

/**
 * Other spellings of the UI's address. @nestjs/swagger picks the page's relative asset base by
 * whether the URL ends in `/`, so `/docs/?x`, `/docs/index.html` got `./docs/…` assets (404, blank
 * page) and `/docs//` swagger-ui-dist's own petstore page: all are sent to the one form, `/docs`.
 */
const DOCS_ALIASES = /^\/docs(?:\/+|\/+index\.html)$/;

/** UI at /docs (assets served locally from swagger-ui-dist: works offline), JSON at /docs/openapi.json. */
export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  // Registered before the UI's own routes, so it sees these paths first.
  (app as NestExpressApplication).use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && DOCS_ALIASES.test(req.path)) {
      const query = req.originalUrl.indexOf('?');
      return res.redirect(301, `/docs${query < 0 ? '' : req.originalUrl.slice(query)}`);
    }
    next();
  });
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
}
