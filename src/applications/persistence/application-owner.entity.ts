import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from './application.entity';

/** One owner of one type of an application; `position` keeps the order the client sent. */
@Entity({ name: 'application_owners' })
@Index(['tenantId', 'login'])
export class ApplicationOwnerEntity {
  @PrimaryColumn({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  /** owner|tech_lead|security_lead */
  @PrimaryColumn({ name: 'owner_type', type: 'varchar', length: 32 })
  ownerType!: string;

  @PrimaryColumn({ type: 'integer' })
  position!: number;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  readonly application?: ApplicationEntity;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ type: 'varchar', length: 255 })
  login!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;
}
