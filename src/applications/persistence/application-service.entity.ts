import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from './application.entity';

/** Membership: an application contains a service. Deleting either side removes only this row. */
@Entity({ name: 'application_services' })
@Index(['tenantId', 'serviceId'])
export class ApplicationServiceEntity {
  @PrimaryColumn({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @PrimaryColumn({ name: 'service_id', type: 'integer' })
  serviceId!: number;

  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  readonly application?: ApplicationEntity;

  // By entity name: the services are the inventory module's.
  @ManyToOne('InventoryServiceEntity', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'tenant_id', referencedColumnName: 'tenantId' },
    { name: 'service_id', referencedColumnName: 'id' },
  ])
  readonly service?: object;
}
