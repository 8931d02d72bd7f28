import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** Integration state per provider (`github`, `aws`), written by the inventory import. */
@Entity({ name: 'integration_settings' })
export class IntegrationSettingEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  provider!: string;

  // By entity name: auth's persistence is its own (docs/decisions/0018-module-boundaries.md).
  @ManyToOne('TenantEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  readonly tenant?: object;

  @Column({ type: 'boolean', default: false })
  enabled!: boolean;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  orgs!: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  accounts!: string[];
}
