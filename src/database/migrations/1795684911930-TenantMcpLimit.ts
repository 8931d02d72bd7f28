import { MigrationInterface, QueryRunner } from 'typeorm';

export class TenantMcpLimit1795684911930 implements MigrationInterface {
  name = 'TenantMcpLimit1795684911930';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tenants" ADD "oauth_mcp_rate_limit_per_minute" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tenants" DROP COLUMN "oauth_mcp_rate_limit_per_minute"`);
  }
}
