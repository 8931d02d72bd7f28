import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from '../../applications/persistence/application.entity';

/** A resource chosen for an application's graph (PUT graph replaces the whole set). */
@Entity({ name: 'application_graph_selections' })
export class GraphSelectionEntity {
  @PrimaryColumn({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @PrimaryColumn({ name: 'platform_id', type: 'varchar', length: 512 })
  platformId!: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  readonly application?: ApplicationEntity;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;
}
