import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InventoryServiceEntity } from './inventory-service.entity';
import { ResourceEntity } from './resource.entity';

/** A service uses a resource (many-to-many: a shared bucket belongs to several services). */
@Entity({ name: 'service_resources' })
@Index(['tenantId', 'platformId'])
export class ServiceResourceEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ name: 'service_id', type: 'integer' })
  serviceId!: number;

  @PrimaryColumn({ name: 'platform_id', type: 'varchar', length: 512 })
  platformId!: string;

  @ManyToOne(() => InventoryServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'tenant_id', referencedColumnName: 'tenantId' },
    { name: 'service_id', referencedColumnName: 'id' },
  ])
  readonly service?: InventoryServiceEntity;

  @ManyToOne(() => ResourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'tenant_id', referencedColumnName: 'tenantId' },
    { name: 'platform_id', referencedColumnName: 'platformId' },
  ])
  readonly resource?: ResourceEntity;
}
