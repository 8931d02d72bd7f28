/**
 * The inventory's closed value sets (docs/inventory.md, docs/sbom.md). Order matters: it is the rank used
 * for sorting ("enum fields sort by rank") and the order `_terms` lists them in.
 */

/**
 * Ranked levels of the worst open finding (and of an application's business impact), least to most
 * severe (`asc` puts LOW first). Not the scanner's SEVERITIES (src/scanner/engine/scan-report.types.ts): another scale.
 */
export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export const ENVIRONMENTS = ['production', 'staging', 'test', 'development', 'sandbox', 'corporate', 'disaster_recovery', 'unassigned'] as const;
export const RESOURCE_CATEGORIES = ['compute', 'storage', 'database', 'network', 'identity', 'messaging', 'other'] as const;

export type RiskLevel = (typeof RISK_LEVELS)[number];
export type Environment = (typeof ENVIRONMENTS)[number];
export type ResourceCategory = (typeof RESOURCE_CATEGORIES)[number];

/** Longest resource platform id (its column is varchar(512)). */
export const MAX_PLATFORM_ID_LENGTH = 512;
