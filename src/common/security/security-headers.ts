import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Helmet's response headers on every response (API, errors, /docs, /metrics). This is a JSON API:
 * the CSP forbids everything except what the bundled Swagger UI at /docs needs (its own scripts
 * and styles, data: images), so an HTML response injected anywhere cannot load or run anything.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        // Swagger UI sets inline styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    // Responses are for programs; nothing here should be embedded or opened cross-origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  }) as RequestHandler;
}
