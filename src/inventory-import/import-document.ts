import Ajv, { type ErrorObject } from 'ajv';
import { ValidationFailedError, type ValidationIssue } from '../common/errors';
import { ajvIssueType } from '../common/validation-issue-types';
import { IMPORT_SCHEMA } from './import-schema';

// The sections' row types belong to the modules that write them; the document re-exports them.
export type { ImportCodeRoot, ImportFindingCount, ImportPackage, ImportRelation, ImportResource, ImportService } from '../inventory/inventory-rows';
export type { ApplicationImport as ImportApplication, ApplicationOwnerImport as ImportOwner } from '../applications/application-import';
export type { IntegrationImport as ImportIntegration } from '../settings/integration-providers';
import type { ApplicationImport as ImportApplication } from '../applications/application-import';
import type { ImportCodeRoot, ImportFindingCount, ImportPackage, ImportRelation, ImportResource, ImportService } from '../inventory/inventory-rows';
import type { IntegrationImport as ImportIntegration } from '../settings/integration-providers';

/** The importing tenant's limits (as PATCH /api/admin/tenant); null = the default. */
export interface ImportTenantSettings {
  rate_limit_per_minute?: number | null;
  oauth_mcp_rate_limit_per_minute?: number | null;
}
export interface ImportDocument {
  mode?: 'merge' | 'replace';
  services?: ImportService[];
  code_roots?: ImportCodeRoot[];
  resources?: ImportResource[];
  relations?: ImportRelation[];
  packages?: ImportPackage[];
  finding_counts?: ImportFindingCount[];
  applications?: ImportApplication[];
  integrations?: Partial<Record<'github' | 'aws', ImportIntegration>>;
  tenant_settings?: ImportTenantSettings;
}

export const IMPORT_SECTIONS = [
  'services',
  'code_roots',
  'resources',
  'relations',
  'packages',
  'finding_counts',
  'applications',
  'integrations',
  'tenant_settings',
] as const;
export type ImportSection = (typeof IMPORT_SECTIONS)[number];

const MAX_ISSUES = 200;
const ajv = new Ajv({ allErrors: true, strict: false });
const validateSchema = ajv.compile(IMPORT_SCHEMA);

function toIssue(error: ErrorObject): ValidationIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { loc: ['body', ...path, missing], msg: 'field required', type: 'value_error.missing' };
  }
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const msg = allowed ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : (error.message ?? 'invalid');
  return { loc: ['body', ...path], msg, type: ajvIssueType(error.keyword, error.params as Record<string, unknown>) };
}

/** Shape check against IMPORT_SCHEMA: 422 naming every bad entry (`["body","services",3,"name"]`). */
export function parseImportDocument(body: unknown): ImportDocument {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailedError([{ loc: ['body'], msg: 'must be a JSON object (the import document)', type: 'type_error.object' }]);
  }
  if (!validateSchema(body)) {
    const seen = new Set<string>();
    const issues: ValidationIssue[] = [];
    for (const error of validateSchema.errors ?? []) {
      // anyOf branches repeat the same location; keep the first message per location.
      if (error.keyword === 'anyOf') continue;
      const issue = toIssue(error);
      const key = JSON.stringify(issue.loc);
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push(issue);
      if (issues.length >= MAX_ISSUES) break;
    }
    throw new ValidationFailedError(issues);
  }
  return body as ImportDocument;
}
