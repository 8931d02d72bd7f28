import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * An application of the inventory. Derived fields (service_count, resource_count, severity, urgent,
 * plan, defer) are not stored: they are computed in SQL from membership and finding counts.
 */
@Entity({ name: 'applications' })
@Index(['tenantId', 'nameKey'], { unique: true })
export class ApplicationEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  // By entity name: auth's persistence is its own (docs/decisions/0018-module-boundaries.md).
  @ManyToOne('TenantEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  readonly tenant?: object;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** lower(name): case-insensitive uniqueness within the tenant and the sort key of `name`. */
  @Column({ name: 'name_key', type: 'varchar', length: 255 })
  nameKey!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'TIER_1' })
  tier!: string;

  @Column({ name: 'business_impact', type: 'varchar', length: 16, default: 'HIGH' })
  businessImpact!: string;

  @Column({ name: 'application_type', type: 'varchar', length: 16, default: 'static' })
  applicationType!: string;

  @Column({ name: 'source_id', type: 'integer', default: 0 })
  sourceId!: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  meta!: Record<string, unknown>;

  /** True once PUT graph stored a selection (which may be empty); false = "all resources". */
  @Column({ name: 'graph_selection_set', type: 'boolean', default: false })
  graphSelectionSet!: boolean;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ name: 'updated', type: 'timestamptz' })
  updated!: Date;
}
