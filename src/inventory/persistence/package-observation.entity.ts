import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InventoryServiceEntity } from './inventory-service.entity';

export interface PackageHash {
  alg: string;
  content: string;
}

/**
 * One package seen in one service: in a code root (source) and/or deployed in an environment.
 * Natural key (tenant, service, coderoot, environment, purl); `''` stands for "none" in coderoot_id
 * and environment so the key has no NULLs (environment `''` = seen in source only).
 */
@Entity({ name: 'package_observations' })
@Index(['tenantId', 'serviceId', 'environment'])
export class PackageObservationEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ name: 'service_id', type: 'integer' })
  serviceId!: number;

  @PrimaryColumn({ name: 'coderoot_id', type: 'varchar', length: 512, default: '' })
  coderootId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32, default: '' })
  environment!: string;

  @PrimaryColumn({ type: 'varchar', length: 1024 })
  purl!: string;

  @ManyToOne(() => InventoryServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'tenant_id', referencedColumnName: 'tenantId' },
    { name: 'service_id', referencedColumnName: 'id' },
  ])
  readonly service?: InventoryServiceEntity;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'group', type: 'varchar', length: 255, nullable: true })
  group!: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  version!: string | null;

  /** Ecosystem / purl type (`npm`, `maven`, `pypi`, ...). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  type!: string | null;

  /** required|optional|excluded (CycloneDX scope). */
  @Column({ type: 'varchar', length: 16, nullable: true })
  scope!: string | null;

  @Column({ type: 'boolean', default: true })
  direct!: boolean;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  hashes!: PackageHash[];

  /** SPDX ids or license names. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  licenses!: string[];

  /** purls this package depends on. */
  @Column({ name: 'depends_on', type: 'jsonb', default: () => "'[]'" })
  dependsOn!: string[];
}
