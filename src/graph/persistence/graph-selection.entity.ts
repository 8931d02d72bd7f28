import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** A resource chosen for an application's graph (PUT graph replaces the whole set). */
@Entity({ name: 'application_graph_selections' })
export class GraphSelectionEntity {
  @PrimaryColumn({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @PrimaryColumn({ name: 'platform_id', type: 'varchar', length: 512 })
  platformId!: string;

  // By entity name: applications' persistence is its own (docs/decisions/0018-module-boundaries.md).
  @ManyToOne('ApplicationEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  readonly application?: object;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;
}
