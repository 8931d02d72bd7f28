import { RISK_LEVELS } from '../inventory/inventory-enums';

/**
 * The applications' closed value sets (docs/inventory.md). Order matters: it is the rank used for
 * sorting ("enum fields sort by rank") and the order `_terms` lists them in.
 */
export const TIERS = ['TIER_1', 'TIER_2', 'TIER_3', 'TIER_4'] as const;
/** Business impact shares the inventory's LOW..CRITICAL scale. */
export const BUSINESS_IMPACTS = RISK_LEVELS;
export const APPLICATION_TYPES = ['static', 'dynamic'] as const;
export const OWNER_TYPES = ['owner', 'tech_lead', 'security_lead'] as const;

export type Tier = (typeof TIERS)[number];
export type ApplicationType = (typeof APPLICATION_TYPES)[number];
export type OwnerType = (typeof OWNER_TYPES)[number];

export const DEFAULT_DESCRIPTION = 'Created by the Bulwark application inventory.';
export const MAX_PAGE_LIMIT = 1000;
export const MAX_OWNERS = 50;
/** Longest owner `login` and `name` (their columns are varchar(255)). */
export const MAX_OWNER_FIELD_LENGTH = 255;
export const MAX_SERVICE_IDS = 10_000;

/** Labels and descriptions of the values `GET /api/applications/_terms` lists (its environments and graph categories too). */
export const TERM_TEXT: Record<string, Record<string, { label: string; description: string }>> = {
  tier: {
    TIER_1: { label: 'Tier 1', description: 'Mission critical: an outage stops the business.' },
    TIER_2: { label: 'Tier 2', description: 'Business critical: an outage hurts revenue or customers.' },
    TIER_3: { label: 'Tier 3', description: 'Business operational: internal impact, workarounds exist.' },
    TIER_4: { label: 'Tier 4', description: 'Administrative: little impact when unavailable.' },
  },
  business_impact: {
    LOW: { label: 'Low', description: 'Minor impact on the business if compromised.' },
    MEDIUM: { label: 'Medium', description: 'Noticeable impact on the business if compromised.' },
    HIGH: { label: 'High', description: 'Serious impact on the business if compromised.' },
    CRITICAL: { label: 'Critical', description: 'Severe impact on the business if compromised.' },
  },
  severity: {
    LOW: { label: 'Low', description: 'Worst open finding of the member services is low (or none).' },
    MEDIUM: { label: 'Medium', description: 'Worst open finding of the member services is medium.' },
    HIGH: { label: 'High', description: 'Worst open finding of the member services is high.' },
    CRITICAL: { label: 'Critical', description: 'Worst open finding of the member services is critical.' },
  },
  application_type: {
    static: { label: 'Static', description: 'Membership is maintained by hand through the API.' },
    dynamic: { label: 'Dynamic', description: 'Membership is maintained by an import source (source_id).' },
  },
  owner_type: {
    owner: { label: 'Owner', description: 'Accountable for the application.' },
    tech_lead: { label: 'Tech lead', description: 'Technical point of contact.' },
    security_lead: { label: 'Security lead', description: 'Security point of contact.' },
  },
  environment: {
    production: { label: 'Production', description: 'Serves customers.' },
    staging: { label: 'Staging', description: 'Pre-production copy of production.' },
    test: { label: 'Test', description: 'Automated and manual testing.' },
    development: { label: 'Development', description: 'Developer environments.' },
    sandbox: { label: 'Sandbox', description: 'Experiments, no production data.' },
    corporate: { label: 'Corporate', description: 'Internal corporate IT.' },
    disaster_recovery: { label: 'Disaster recovery', description: 'Standby copy for recovery.' },
    unassigned: { label: 'Unassigned', description: 'Deployed, environment not known.' },
  },
  graph_categories: {
    compute: { label: 'Compute', description: 'Functions, instances, containers, clusters.' },
    storage: { label: 'Storage', description: 'Buckets, volumes, file systems.' },
    database: { label: 'Database', description: 'Relational, document and key-value stores, caches.' },
    network: { label: 'Network', description: 'VPCs, load balancers, gateways, DNS, CDNs.' },
    identity: { label: 'Identity', description: 'Roles, users, policies, keys and secrets.' },
    messaging: { label: 'Messaging', description: 'Queues, topics, streams, event buses.' },
    other: { label: 'Other', description: 'Anything else.' },
  },
};
