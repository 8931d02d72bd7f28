import Ajv, { type ErrorObject } from 'ajv';
import { ValidationFailedError, type ValidationIssue } from '../common/errors';
import { ajvIssueType } from '../common/validation-issue-types';
import { IMPORT_SCHEMA } from './import-schema';

export interface ImportService {
  id: number;
  name: string;
  source_type?: string | null;
  source_id?: number;
  meta?: Record<string, unknown> | null;
}
export interface ImportCodeRoot {
  id: string;
  service_id: number;
  repository?: string;
  path?: string;
  default_branch?: string | null;
}
export interface ImportResource {
  platform_id: string;
  resource_type: string;
  source_type?: string | null;
  category?: string | null;
  name?: string | null;
  provider?: string | null;
  region?: string | null;
  environment?: string | null;
  service_ids?: number[];
}
export interface ImportRelation {
  source: string;
  target: string;
  relation: string;
}
export interface ImportPackage {
  service_id: number;
  coderoot_id?: string | null;
  environment?: string | null;
  purl: string;
  name: string;
  group?: string | null;
  version?: string | null;
  type?: string | null;
  scope?: string | null;
  direct?: boolean;
  hashes?: { alg: string; content: string }[];
  licenses?: string[];
  depends_on?: string[];
}
export interface ImportFindingCount {
  service_id: number;
  severity: string;
  urgent?: number;
  plan?: number;
  defer?: number;
}
export interface ImportOwner {
  login: string;
  name: string;
}
export interface ImportApplication {
  name: string;
  description?: string | null;
  tier?: string;
  business_impact?: string;
  application_type?: string;
  source_id?: number;
  meta?: Record<string, unknown> | null;
  service_ids?: number[];
  owners?: Partial<Record<'owner' | 'tech_lead' | 'security_lead', ImportOwner[]>>;
}
export interface ImportIntegration {
  enabled: boolean;
  orgs?: string[];
  accounts?: string[];
}
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

export const IMPORT_SECTIONS = ['services', 'code_roots', 'resources', 'relations', 'packages', 'finding_counts', 'applications', 'integrations', 'tenant_settings'] as const;
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

/** `owner/repo:path` → repository and path. */
export function splitCodeRootId(id: string): { repository: string; path: string } {
  const colon = id.indexOf(':');
  return { repository: id.slice(0, colon), path: id.slice(colon + 1) };
}
