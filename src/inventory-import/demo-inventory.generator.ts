import { createHash } from 'node:crypto';
import type {
  ImportApplication,
  ImportCodeRoot,
  ImportDocument,
  ImportFindingCount,
  ImportPackage,
  ImportRelation,
  ImportResource,
  ImportService,
} from './import-document';

/**
 * A realistic, deterministic demo inventory (same seed → same document): dozens of applications,
 * hundreds of services, thousands of resources and package observations, three clouds and several
 * environments. Generated in memory at start-up (`--demo`), and by scripts/generate-demo-inventory.ts
 * for inspection or as a SEED_FILE.
 */

/** mulberry32: tiny, fast, good enough for demo data, identical on every platform. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const APPS = [
  'payments',
  'checkout',
  'identity',
  'search',
  'catalog',
  'orders',
  'inventory',
  'shipping',
  'notifications',
  'billing',
  'analytics',
  'recommendations',
  'reviews',
  'loyalty',
  'pricing',
  'fraud-detection',
  'customer-portal',
  'partner-api',
  'mobile-backend',
  'admin-console',
  'data-platform',
  'ml-platform',
  'reporting',
  'support-desk',
  'marketing-site',
  'email-service',
  'media-pipeline',
  'returns',
  'tax-engine',
  'subscriptions',
  'warehouse',
  'supplier-portal',
  'feature-flags',
  'audit-log',
  'observability',
  'ci-platform',
  'developer-portal',
  'hr-system',
  'expenses',
  'knowledge-base',
];
const COMPONENTS = [
  'api',
  'worker',
  'web',
  'scheduler',
  'gateway',
  'consumer',
  'db-migrator',
  'cache',
  'indexer',
  'exporter',
  'importer',
  'sync',
  'auth',
  'cron',
  'ui',
  'bff',
];
const PEOPLE = [
  ['jdoe', 'Jane Doe'],
  ['asmith', 'Alex Smith'],
  ['mgarcia', 'Maria Garcia'],
  ['wchen', 'Wei Chen'],
  ['pkumar', 'Priya Kumar'],
  ['onovak', 'Ola Novak'],
  ['tnguyen', 'Thao Nguyen'],
  ['kmuller', 'Klaus Müller'],
  ['lrossi', 'Luca Rossi'],
  ['abello', 'Ade Bello'],
  ['syamada', 'Sora Yamada'],
  ['edubois', 'Emma Dubois'],
] as const;
const ENVIRONMENTS = ['production', 'staging', 'development', 'test', 'sandbox', 'disaster_recovery'] as const;
const ENV_SHORT: Record<string, string> = { production: 'prod', staging: 'stg', development: 'dev', test: 'test', sandbox: 'sbx', disaster_recovery: 'dr' };
const AWS_TYPES = [
  ['aws_s3_bucket', 'storage'],
  ['aws_lambda_function', 'compute'],
  ['aws_dynamodb_table', 'database'],
  ['aws_rds_instance', 'database'],
  ['aws_sqs_queue', 'messaging'],
  ['aws_sns_topic', 'messaging'],
  ['aws_iam_role', 'identity'],
  ['aws_kms_key', 'identity'],
  ['aws_ecs_service', 'compute'],
  ['aws_lb', 'network'],
  ['aws_security_group', 'network'],
  ['aws_elasticache_cluster', 'database'],
  ['aws_cloudwatch_log_group', 'other'],
] as const;
const GCP_TYPES = [
  ['gcp_storage_bucket', 'storage'],
  ['gcp_cloud_run_service', 'compute'],
  ['gcp_pubsub_topic', 'messaging'],
  ['gcp_sql_instance', 'database'],
  ['gcp_service_account', 'identity'],
  ['gcp_compute_firewall', 'network'],
  ['gcp_bigquery_dataset', 'other'],
] as const;
const AZURE_TYPES = [
  ['azure_storage_account', 'storage'],
  ['azure_function_app', 'compute'],
  ['azure_cosmosdb_account', 'database'],
  ['azure_service_bus_queue', 'messaging'],
  ['azure_key_vault', 'identity'],
  ['azure_application_gateway', 'network'],
] as const;
const K8S_TYPES = [
  ['kubernetes_deployment', 'compute'],
  ['kubernetes_ingress', 'network'],
  ['kubernetes_secret', 'identity'],
  ['kubernetes_config_map', 'other'],
] as const;

const ECOSYSTEMS: Record<string, { type: string; packages: [string | null, string][] }> = {
  npm: {
    type: 'npm',
    packages: [
      [null, 'express'],
      [null, 'lodash'],
      [null, 'axios'],
      ['@nestjs', 'core'],
      ['@nestjs', 'common'],
      [null, 'react'],
      [null, 'react-dom'],
      [null, 'pg'],
      [null, 'ioredis'],
      [null, 'jsonwebtoken'],
      [null, 'zod'],
      [null, 'pino'],
      [null, 'dayjs'],
      [null, 'uuid'],
      [null, 'ws'],
      ['@aws-sdk', 'client-s3'],
      [null, 'typeorm'],
      [null, 'helmet'],
      [null, 'minimist'],
      [null, 'semver'],
      [null, 'debug'],
      [null, 'qs'],
      [null, 'body-parser'],
      [null, 'cookie'],
      [null, 'yaml'],
      [null, 'chalk'],
      [null, 'commander'],
    ],
  },
  maven: {
    type: 'maven',
    packages: [
      ['org.springframework.boot', 'spring-boot-starter-web'],
      ['org.springframework', 'spring-core'],
      ['com.fasterxml.jackson.core', 'jackson-databind'],
      ['org.apache.logging.log4j', 'log4j-core'],
      ['org.postgresql', 'postgresql'],
      ['com.google.guava', 'guava'],
      ['org.apache.commons', 'commons-lang3'],
      ['io.netty', 'netty-handler'],
      ['org.yaml', 'snakeyaml'],
      ['org.slf4j', 'slf4j-api'],
      ['com.zaxxer', 'HikariCP'],
      ['org.hibernate.orm', 'hibernate-core'],
    ],
  },
  pypi: {
    type: 'pypi',
    packages: [
      [null, 'django'],
      [null, 'flask'],
      [null, 'requests'],
      [null, 'numpy'],
      [null, 'pandas'],
      [null, 'boto3'],
      [null, 'sqlalchemy'],
      [null, 'pydantic'],
      [null, 'celery'],
      [null, 'urllib3'],
      [null, 'pyyaml'],
      [null, 'jinja2'],
      [null, 'cryptography'],
      [null, 'scikit-learn'],
      [null, 'fastapi'],
    ],
  },
  golang: {
    type: 'golang',
    packages: [
      ['github.com/gin-gonic', 'gin'],
      ['github.com/spf13', 'cobra'],
      ['github.com/sirupsen', 'logrus'],
      ['google.golang.org', 'grpc'],
      ['github.com/lib', 'pq'],
      ['github.com/stretchr', 'testify'],
      ['golang.org/x', 'crypto'],
      ['golang.org/x', 'net'],
      ['github.com/prometheus', 'client_golang'],
      ['gopkg.in', 'yaml.v3'],
    ],
  },
};
const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'MPL-2.0', 'BSD-2-Clause', 'LGPL-2.1-only'];
const SEVERITY_LIST = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
const TIER_LIST = ['TIER_1', 'TIER_2', 'TIER_3', 'TIER_4'] as const;

function purlOf(type: string, group: string | null, name: string, version: string): string {
  const ns = group ? `${group.split('/').map(encodeURIComponent).join('/')}/` : '';
  return `pkg:${type}/${ns}${encodeURIComponent(name)}@${encodeURIComponent(version)}`;
}

export interface DemoSize {
  applications: number;
  /** Extra random services per application on top of the first few. */
  servicesPerApp: [number, number];
  resourcesPerService: [number, number];
  packagesPerService: [number, number];
}

export const DEFAULT_DEMO_SIZE: DemoSize = { applications: APPS.length, servicesPerApp: [5, 11], resourcesPerService: [6, 13], packagesPerService: [8, 16] };

export function generateDemoInventory(seed = 20261122, size: DemoSize = DEFAULT_DEMO_SIZE): ImportDocument {
  const rand = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const sample = <T>(list: readonly T[], n: number): T[] => {
    const copy = [...list];
    const out: T[] = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0]!);
    return out;
  };

  const services: ImportService[] = [];
  const codeRoots: ImportCodeRoot[] = [];
  const resources: ImportResource[] = [];
  const relations: ImportRelation[] = [];
  const packages: ImportPackage[] = [];
  const findingCounts: ImportFindingCount[] = [];
  const applications: ImportApplication[] = [];
  let nextServiceId = 1001;

  for (let a = 0; a < size.applications; a++) {
    const app = APPS[a % APPS.length]! + (a >= APPS.length ? `-${Math.floor(a / APPS.length) + 1}` : '');
    const cloud = a % 5 === 3 ? 'gcp' : a % 7 === 5 ? 'azure' : 'aws';
    const lang = pick(Object.keys(ECOSYSTEMS));
    // Every fifth application is dynamic: its services come from an import source of its own.
    const dynamic = a % 5 === 4;
    const sourceId = dynamic ? 100 + a : cloud === 'aws' ? 2 : cloud === 'gcp' ? 3 : 4;
    const components = sample(COMPONENTS, int(size.servicesPerApp[0], size.servicesPerApp[1]));
    const serviceIds: number[] = [];
    for (const component of components) {
      const id = nextServiceId++;
      serviceIds.push(id);
      const name = `${app}-${component}`;
      services.push({ id, name, source_type: pick(['github', cloud, 'kubernetes']), source_id: sourceId, meta: { language: lang, team: `team-${app}` } });
      const repo = `acme-corp/${app}`;
      const root = `${repo}:services/${component}`;
      codeRoots.push({ id: root, service_id: id, repository: repo, path: `services/${component}`, default_branch: 'main' });
      const envs = sample(ENVIRONMENTS.slice(0, 4), int(1, 3)).concat(rand() < 0.1 ? ['disaster_recovery'] : []);
      const types: readonly (readonly [string, string])[] = cloud === 'aws' ? AWS_TYPES : cloud === 'gcp' ? GCP_TYPES : AZURE_TYPES;
      const nResources = int(size.resourcesPerService[0], size.resourcesPerService[1]);
      for (let r = 0; r < nResources; r++) {
        const env = envs[r % envs.length]!;
        const [type, category] = rand() < 0.15 ? pick(K8S_TYPES) : pick(types);
        const rname = `${name}-${ENV_SHORT[env]}-${type.split('_').slice(1).join('-')}-${r}`;
        const region =
          cloud === 'aws'
            ? pick(['us-east-1', 'eu-west-1', 'ap-southeast-2'])
            : cloud === 'gcp'
              ? pick(['europe-west1', 'us-central1'])
              : pick(['westeurope', 'eastus']);
        const platformId = type.startsWith('kubernetes')
          ? `k8s://${ENV_SHORT[env]}-cluster/${app}/${type.replace('kubernetes_', '')}/${rname}`
          : cloud === 'aws'
            ? `arn:aws:${type.split('_')[1]}:${region}:${100000000000 + a * 7919}:${rname}`
            : cloud === 'gcp'
              ? `//${type.split('_')[1]}.googleapis.com/projects/acme-${ENV_SHORT[env]}/${rname}`
              : `/subscriptions/0000-${a}/resourceGroups/${app}-${ENV_SHORT[env]}/providers/${type}/${rname}`;
        resources.push({
          platform_id: platformId,
          resource_type: type,
          source_type: type.startsWith('kubernetes') ? 'kubernetes' : cloud,
          category,
          name: rname,
          provider: type.startsWith('kubernetes') ? 'kubernetes' : cloud,
          region,
          environment: env,
          service_ids: [id],
        });
        if (r < 3)
          relations.push({ source: `service:${id}`, target: `resource:${platformId}`, relation: pick(['reads_from', 'writes_to', 'publishes_to', 'assumes']) });
      }
      // Packages: a slice of the ecosystem, seen in source and in some deployments.
      const eco = ECOSYSTEMS[lang]!;
      const chosen = sample(eco.packages, Math.min(eco.packages.length, int(size.packagesPerService[0], size.packagesPerService[1])));
      const purls = chosen.map(([group, pname]) => {
        const version = `${int(0, 5)}.${int(0, 20)}.${int(0, 30)}`;
        return { group, pname, version, purl: purlOf(eco.type, group, pname, version) };
      });
      purls.forEach((pk, i) => {
        const hash = createHash('sha256').update(pk.purl).digest('hex');
        const base: ImportPackage = {
          service_id: id,
          coderoot_id: root,
          environment: null,
          purl: pk.purl,
          name: pk.pname,
          group: pk.group,
          version: pk.version,
          type: eco.type,
          scope: i % 9 === 8 ? 'optional' : 'required',
          direct: i < purls.length / 2,
          hashes: [{ alg: 'SHA-256', content: hash }],
          licenses: [pick(LICENSES)],
          depends_on: i + 1 < purls.length && i % 3 === 0 ? [purls[i + 1]!.purl] : [],
        };
        packages.push(base);
        for (const env of envs.slice(0, 2)) if (rand() < 0.45) packages.push({ ...base, environment: env });
      });
      for (const severity of SEVERITY_LIST) {
        if (rand() < (severity === 'CRITICAL' ? 0.12 : 0.5))
          findingCounts.push({
            service_id: id,
            severity,
            urgent: severity === 'CRITICAL' || severity === 'HIGH' ? int(0, 6) : 0,
            plan: int(0, 15),
            defer: int(0, 30),
          });
      }
    }
    for (let i = 1; i < serviceIds.length; i++) relations.push({ source: `service:${serviceIds[0]}`, target: `service:${serviceIds[i]}`, relation: 'calls' });
    const [owner, lead, sec] = sample(PEOPLE, 3);
    applications.push({
      name: app,
      description: `${app.replace(/-/g, ' ')} (${cloud.toUpperCase()}, ${lang})`,
      tier: TIER_LIST[a % 4]!,
      business_impact: SEVERITY_LIST[(a * 3) % 4]!,
      application_type: dynamic ? 'dynamic' : 'static',
      source_id: dynamic ? sourceId : 0,
      meta: { cloud, language: lang, cost_center: `cc-${100 + (a % 12)}` },
      ...(dynamic ? {} : { service_ids: serviceIds }),
      owners: {
        owner: [{ login: owner![0], name: owner![1] }],
        tech_lead: [{ login: lead![0], name: lead![1] }],
        ...(a % 2 ? { security_lead: [{ login: sec![0], name: sec![1] }] } : {}),
      },
    });
  }
  // A few platform services shared by many applications.
  const shared = [
    { id: 9001, name: 'auth-gateway' },
    { id: 9002, name: 'logging-agent' },
    { id: 9003, name: 'secrets-broker' },
  ];
  for (const s of shared) services.push({ ...s, source_type: 'kubernetes', source_id: 1, meta: { shared: true } });
  applications.forEach((app, i) => {
    if (app.service_ids && i % 3 === 0) app.service_ids.push(shared[i % shared.length]!.id);
  });

  return {
    mode: 'merge',
    integrations: {
      github: { enabled: true, orgs: ['acme-corp', 'acme-labs'], accounts: [] },
      aws: { enabled: true, orgs: ['o-acme2026'], accounts: ['100000000000', '100000007919', '100000015838'] },
    },
    services,
    code_roots: codeRoots,
    resources,
    relations,
    packages,
    finding_counts: findingCounts,
    applications,
  };
}
