import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitTenancy1795323645090 implements MigrationInterface {
  name = 'InitTenancy1795323645090';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tenants" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" character varying(100) NOT NULL, "name" character varying(255) NOT NULL, "rate_limit_per_minute" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_2310ecc5cb8be427097154b18fc" UNIQUE ("slug"), CONSTRAINT "PK_53be67a04681c66b87ee27c9321" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "token_hash" character(64) NOT NULL, "display_prefix" character varying(16) NOT NULL, "scopes" text array NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "rate_limit_per_minute" integer, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_3ac18429c8d27858d79432e0dd" ON "api_keys"  ("tenant_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_77f4ee004e33afac232c0a8fd1" ON "api_keys"  ("token_hash") `);
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_3ac18429c8d27858d79432e0dda" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_3ac18429c8d27858d79432e0dda"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_77f4ee004e33afac232c0a8fd1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3ac18429c8d27858d79432e0dd"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TABLE "tenants"`);
  }
}
