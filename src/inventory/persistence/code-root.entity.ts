import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InventoryServiceEntity } from './inventory-service.entity';

/** A source location of a service: `owner/repo:path` (the SBOM's `coderoots`). */
@Entity({ name: 'code_roots' })
@Index(['tenantId', 'serviceId'])
export class CodeRootEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  /** `owner/repo:path`, e.g. `acme/payments:services/api`. */
  @PrimaryColumn({ type: 'varchar', length: 512 })
  id!: string;

  @Column({ name: 'service_id', type: 'integer' })
  serviceId!: number;

  @ManyToOne(() => InventoryServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'tenant_id', referencedColumnName: 'tenantId' },
    { name: 'service_id', referencedColumnName: 'id' },
  ])
  readonly service?: InventoryServiceEntity;

  @Column({ type: 'varchar', length: 255 })
  repository!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  path!: string;

  @Column({ name: 'default_branch', type: 'varchar', length: 255, nullable: true })
  defaultBranch!: string | null;
}
