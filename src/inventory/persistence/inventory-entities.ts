import { CodeRootEntity } from './code-root.entity';
import { FindingCountEntity } from './finding-count.entity';
import { InventoryServiceEntity } from './inventory-service.entity';
import { PackageObservationEntity } from './package-observation.entity';
import { RelationEntity } from './relation.entity';
import { ResourceEntity } from './resource.entity';
import { ServiceResourceEntity } from './service-resource.entity';

/** The inventory module's entities (services, resources, code roots, relations, packages, finding counts), for src/database/entities.ts. */
export const INVENTORY_ENTITIES = [
  InventoryServiceEntity,
  CodeRootEntity,
  ResourceEntity,
  ServiceResourceEntity,
  RelationEntity,
  FindingCountEntity,
  PackageObservationEntity,
];
