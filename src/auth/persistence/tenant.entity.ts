import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An organization. Every stored row belongs to exactly one tenant (docs/decisions/0021-tenancy-and-credentials.md). */
@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Stable human identifier (`default`, `acme`). */
  @Column({ type: 'varchar', length: 100, unique: true })
  slug!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Budget of this tenant's API keys that have no limit of their own (requests/minute); null = default. */
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute!: number | null;

  /** Tenant-wide limit of OAuth-authenticated MCP callers (requests/minute, per client + user); null = default. */
  @Column({ name: 'oauth_mcp_rate_limit_per_minute', type: 'integer', nullable: true })
  oauthMcpRateLimitPerMinute!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
