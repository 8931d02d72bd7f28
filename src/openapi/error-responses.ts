import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger';

/** The error bodies of docs/errors.md, as OpenAPI components. */
const ERROR_SCHEMAS = {
  Error: {
    type: 'object',
    additionalProperties: false,
    required: ['detail'],
    properties: { detail: { type: 'string', example: 'Application 12 not found' } },
  },
  ValidationError: {
    type: 'object',
    additionalProperties: false,
    required: ['detail'],
    properties: {
      detail: {
        type: 'array',
        minItems: 1,
        description: 'One issue per location.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['loc', 'msg', 'type'],
          properties: {
            loc: {
              type: 'array',
              items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
              example: ['body', 'name'],
              description: '`body`, `query` or `path`, then field names and array indices.',
            },
            msg: { type: 'string', example: 'field required' },
            type: { type: 'string', example: 'value_error.missing' },
          },
        },
      },
    },
  },
} as const;

interface ErrorRule {
  status: string;
  /** Whether the status can answer this operation. */
  applies: (op: OperationObject, path: string) => boolean;
  description: string;
}

const isApi = (_op: OperationObject, path: string) => path.startsWith('/api/');
const params = (op: OperationObject, where: string) => (op.parameters ?? []).some((p) => (p as ParameterObject).in === where);

/**
 * Which error statuses an operation can answer (docs/errors.md, docs/rate-limits.md), derived from
 * what the operation takes. A response an operation already declares keeps its own description.
 */
const ERROR_RULES: ErrorRule[] = [
  { status: '400', applies: (op) => Boolean(op.requestBody), description: 'The body is not parseable JSON' },
  { status: '401', applies: isApi, description: 'Missing, malformed, unknown, expired or revoked token (with `WWW-Authenticate: Bearer`)' },
  { status: '403', applies: isApi, description: 'The source address is edge-blocked: empty body, no `Retry-After` (docs/rate-limits.md)' },
  { status: '404', applies: (op) => params(op, 'path'), description: "No such resource in the caller's tenant" },
  { status: '413', applies: (op) => Boolean(op.requestBody), description: 'The body is over the size limit' },
  {
    status: '422',
    applies: (op) => Boolean(op.requestBody) || params(op, 'path') || params(op, 'query'),
    description: 'Validation of the body, query or path failed',
  },
  { status: '429', applies: isApi, description: 'Rate limit, cooldown or quota exceeded; `Retry-After` says when to retry' },
];

const errorContent = (status: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${status === '422' ? 'ValidationError' : 'Error'}` } },
});

/** Adds the error responses that apply to every operation, each with its `{"detail"}` body schema. */
export function documentErrorResponses(document: OpenAPIObject): void {
  document.components = { ...document.components, schemas: { ...(document.components?.schemas ?? {}), ...(ERROR_SCHEMAS as Record<string, object>) } };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const op of Object.values(item) as OperationObject[]) {
      for (const rule of ERROR_RULES) {
        if (!op.responses[rule.status] && rule.applies(op, path)) op.responses[rule.status] = { description: rule.description };
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const r = response as ResponseObject;
        if (Number(status) >= 400 && !r.content) r.content = errorContent(status);
      }
      op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}
