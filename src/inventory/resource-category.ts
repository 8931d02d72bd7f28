import type { ResourceCategory } from './inventory-enums';

// Resource families by name, for imports that give a resource no category (RESOURCE_CATEGORIES).
const CATEGORY_PATTERNS: [RegExp, ResourceCategory][] = [
  [/(rds|dynamo|database|\bdb\b|_db|sql|aurora|redshift|elasticache|redis|mongo|cosmos|spanner|bigtable|firestore|documentdb|neptune|cassandra)/i, 'database'],
  [/(s3|bucket|storage|ebs|efs|volume|disk|blob|glacier|filestore|fsx)/i, 'storage'],
  [/(sqs|sns|queue|topic|kinesis|kafka|eventbridge|event_bus|eventbus|pubsub|pub_sub|servicebus|service_bus|stream|mq\b|msk)/i, 'messaging'],
  [
    /(vpc|subnet|security_group|load_balancer|loadbalancer|elb|alb|nlb|(^|_)lb($|_)|gateway|route53|dns|cloudfront|cdn|network|firewall|nat|endpoint|ingress)/i,
    'network',
  ],
  [/(iam|role|policy|user|group|kms|secret|identity|cognito|key_vault|keyvault|service_account|certificate|acm)/i, 'identity'],
  [
    /(lambda|ec2|instance|ecs|eks|fargate|container|function|pod|deployment|cluster|vm\b|virtual_machine|compute|app_service|cloud_run|kubernetes|k8s|batch)/i,
    'compute',
  ],
];

/** Category of a resource type when the import gives none (first matching family wins). */
export function categoryForResourceType(resourceType: string): ResourceCategory {
  for (const [pattern, category] of CATEGORY_PATTERNS) if (pattern.test(resourceType)) return category;
  return 'other';
}
