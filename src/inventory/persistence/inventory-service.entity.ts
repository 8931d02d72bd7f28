import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * A service of the inventory (a deployable unit found by an integration). Its integer id is chosen by
 * the importing source and is unique within the tenant, so import documents can reference services
 * by the same ids the API shows (`service_ids`).
 */
@Entity({ name: 'inventory_services' })
@Index(['tenantId', 'sourceId'])
export class InventoryServiceEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ type: 'integer' })
  id!: number;

  // By entity name: auth's persistence is its own (docs/decisions/0018-module-boundaries.md).
  @ManyToOne('TenantEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  readonly tenant?: object;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Where the service was discovered (`github`, `aws`, `kubernetes`, ...). */
  @Column({ name: 'source_type', type: 'varchar', length: 64, nullable: true })
  sourceType!: string | null;

  /** Import source that maintains it; dynamic applications take every service of their source_id. */
  @Column({ name: 'source_id', type: 'integer', default: 0 })
  sourceId!: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  meta!: Record<string, unknown>;
}
