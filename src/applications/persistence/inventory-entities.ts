import { ApplicationOwnerEntity } from './application-owner.entity';
import { ApplicationServiceEntity } from './application-service.entity';
import { ApplicationEntity } from './application.entity';
import { CodeRootEntity } from './code-root.entity';
import { FindingCountEntity } from './finding-count.entity';
import { InventoryServiceEntity } from './inventory-service.entity';
import { PackageObservationEntity } from './package-observation.entity';
import { RelationEntity } from './relation.entity';
import { ResourceEntity } from './resource.entity';
import { ServiceResourceEntity } from './service-resource.entity';

/** The applications module's entities (the inventory and the applications), for src/database/entities.ts. */
export const INVENTORY_ENTITIES = [
  InventoryServiceEntity,
  CodeRootEntity,
  ResourceEntity,
  ServiceResourceEntity,
  RelationEntity,
  FindingCountEntity,
  PackageObservationEntity,
  ApplicationEntity,
  ApplicationServiceEntity,
  ApplicationOwnerEntity,
];
