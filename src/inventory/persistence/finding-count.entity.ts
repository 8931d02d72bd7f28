import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InventoryServiceEntity } from './inventory-service.entity';

/** Open findings of one service at one severity, split into the urgent/plan/defer priority buckets. */
@Entity({ name: 'service_finding_counts' })
export class FindingCountEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @PrimaryColumn({ name: 'service_id', type: 'integer' })
  serviceId!: number;

  /** CRITICAL|HIGH|MEDIUM|LOW */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  severity!: string;

  @ManyToOne(() => InventoryServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'tenant_id', referencedColumnName: 'tenantId' },
    { name: 'service_id', referencedColumnName: 'id' },
  ])
  readonly service?: InventoryServiceEntity;

  @Column({ type: 'integer', default: 0 })
  urgent!: number;

  @Column({ type: 'integer', default: 0 })
  plan!: number;

  @Column({ type: 'integer', default: 0 })
  defer!: number;
}
