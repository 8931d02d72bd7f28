import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from '../../auth/persistence/tenant.entity';

/** Integration state per provider (`github`, `aws`), written by the inventory import. */
@Entity({ name: 'integration_settings' })
export class IntegrationSettingEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  provider!: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  readonly tenant?: TenantEntity;

  @Column({ type: 'boolean', default: false })
  enabled!: boolean;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  orgs!: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  accounts!: string[];
}
