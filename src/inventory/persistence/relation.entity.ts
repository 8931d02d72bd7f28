import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** An imported edge between graph nodes (`service:<id>`, `resource:<platform_id>`), e.g. `reads_from`. */
@Entity({ name: 'inventory_relations' })
export class RelationEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ name: 'source_node', type: 'varchar', length: 600 })
  sourceNode!: string;

  @PrimaryColumn({ name: 'target_node', type: 'varchar', length: 600 })
  targetNode!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  relation!: string;

  // By entity name: auth's persistence is its own (docs/decisions/0018-module-boundaries.md).
  @ManyToOne('TenantEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  readonly tenant?: object;
}
