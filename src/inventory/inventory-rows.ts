// The inventory's rows as the import document gives them (docs/import-schema.json); the import
// (src/inventory-import) validates a document and hands these sections to InventoryWriter.

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
/** `owner/repo:path` → repository and path. */
export function splitCodeRootId(id: string): { repository: string; path: string } {
  const colon = id.indexOf(':');
  return { repository: id.slice(0, colon), path: id.slice(colon + 1) };
}
