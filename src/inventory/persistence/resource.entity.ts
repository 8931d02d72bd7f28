import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** A cloud or platform resource, identified within the tenant by its platform id (ARN, URL, ...). */
@Entity({ name: 'resources' })
export class ResourceEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ name: 'platform_id', type: 'varchar', length: 512 })
  platformId!: string;

  // By entity name: auth's persistence is its own (docs/decisions/0018-module-boundaries.md).
  @ManyToOne('TenantEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  readonly tenant?: object;

  @Column({ name: 'resource_type', type: 'varchar', length: 128 })
  resourceType!: string;

  @Column({ name: 'source_type', type: 'varchar', length: 64, nullable: true })
  sourceType!: string | null;

  /** compute|storage|database|network|identity|messaging|other (derived from the type when not given). */
  @Column({ type: 'varchar', length: 32 })
  category!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name!: string | null;

  /** Cloud provider (`aws`, `gcp`, `azure`, ...). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  provider!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  region!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  environment!: string | null;
}
