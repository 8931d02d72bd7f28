import { MigrationInterface, QueryRunner } from 'typeorm';

export class InventoryModel1795324371186 implements MigrationInterface {
  name = 'InventoryModel1795324371186';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "applications" ("id" SERIAL NOT NULL, "tenant_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "name_key" character varying(255) NOT NULL, "description" text, "tier" character varying(16) NOT NULL DEFAULT 'TIER_1', "business_impact" character varying(16) NOT NULL DEFAULT 'HIGH', "application_type" character varying(16) NOT NULL DEFAULT 'static', "source_id" integer NOT NULL DEFAULT '0', "meta" jsonb NOT NULL DEFAULT '{}', "graph_selection_set" boolean NOT NULL DEFAULT false, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_938c0a27255637bde919591888f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_8980f0c12032ea35f39c00ed83" ON "applications"  ("tenant_id", "name_key") `);
    await queryRunner.query(
      `CREATE TABLE "application_graph_selections" ("application_id" integer NOT NULL, "platform_id" character varying(512) NOT NULL, "tenant_id" uuid NOT NULL, CONSTRAINT "PK_e24d29a528dda95de48e01c69d9" PRIMARY KEY ("application_id", "platform_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "integration_settings" ("tenant_id" uuid NOT NULL, "provider" character varying(32) NOT NULL, "enabled" boolean NOT NULL DEFAULT false, "orgs" jsonb NOT NULL DEFAULT '[]', "accounts" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_78153c95201d86dabff1830822f" PRIMARY KEY ("tenant_id", "provider"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "application_owners" ("application_id" integer NOT NULL, "owner_type" character varying(32) NOT NULL, "position" integer NOT NULL, "tenant_id" uuid NOT NULL, "login" character varying(255) NOT NULL, "name" character varying(255) NOT NULL, CONSTRAINT "PK_53af461776d5587ea04d50106e5" PRIMARY KEY ("application_id", "owner_type", "position"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1835c8041dbc931cc10afb9e14" ON "application_owners"  ("tenant_id", "login") `);
    await queryRunner.query(
      `CREATE TABLE "inventory_services" ("tenant_id" uuid NOT NULL, "id" integer NOT NULL, "name" character varying(255) NOT NULL, "source_type" character varying(64), "source_id" integer NOT NULL DEFAULT '0', "meta" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_6e53cb6e86416602cec48e731d3" PRIMARY KEY ("tenant_id", "id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_932ab359c1a4c6510e3bbf4eab" ON "inventory_services"  ("tenant_id", "source_id") `);
    await queryRunner.query(
      `CREATE TABLE "application_services" ("application_id" integer NOT NULL, "service_id" integer NOT NULL, "tenant_id" uuid NOT NULL, CONSTRAINT "PK_3133d8240709c1f001dc82cf208" PRIMARY KEY ("application_id", "service_id", "tenant_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_df6d82aed730d5beb1d2e5fccc" ON "application_services"  ("tenant_id", "service_id") `);
    await queryRunner.query(
      `CREATE TABLE "code_roots" ("tenant_id" uuid NOT NULL, "id" character varying(512) NOT NULL, "service_id" integer NOT NULL, "repository" character varying(255) NOT NULL, "path" character varying(255) NOT NULL DEFAULT '', "default_branch" character varying(255), CONSTRAINT "PK_bf99208ca647d401371daf5eed1" PRIMARY KEY ("tenant_id", "id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_964ff4f5513fd11b4ae30b47b1" ON "code_roots"  ("tenant_id", "service_id") `);
    await queryRunner.query(
      `CREATE TABLE "service_finding_counts" ("tenant_id" uuid NOT NULL, "service_id" integer NOT NULL, "severity" character varying(16) NOT NULL, "urgent" integer NOT NULL DEFAULT '0', "plan" integer NOT NULL DEFAULT '0', "defer" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_af23c585e46da47105c3d6fcd8a" PRIMARY KEY ("tenant_id", "service_id", "severity"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "package_observations" ("tenant_id" uuid NOT NULL, "service_id" integer NOT NULL, "coderoot_id" character varying(512) NOT NULL DEFAULT '', "environment" character varying(32) NOT NULL DEFAULT '', "purl" character varying(1024) NOT NULL, "name" character varying(255) NOT NULL, "group" character varying(255), "version" character varying(128), "type" character varying(32), "scope" character varying(16), "direct" boolean NOT NULL DEFAULT true, "hashes" jsonb NOT NULL DEFAULT '[]', "licenses" jsonb NOT NULL DEFAULT '[]', "depends_on" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_2fb736dd785c03cadc54073920d" PRIMARY KEY ("tenant_id", "service_id", "coderoot_id", "environment", "purl"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_c383bed5bd093ef03b0277572e" ON "package_observations"  ("tenant_id", "service_id", "environment") `);
    await queryRunner.query(
      `CREATE TABLE "inventory_relations" ("tenant_id" uuid NOT NULL, "source_node" character varying(600) NOT NULL, "target_node" character varying(600) NOT NULL, "relation" character varying(64) NOT NULL, CONSTRAINT "PK_06c0cbe130dea3b45b3e1433d07" PRIMARY KEY ("tenant_id", "source_node", "target_node", "relation"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "resources" ("tenant_id" uuid NOT NULL, "platform_id" character varying(512) NOT NULL, "resource_type" character varying(128) NOT NULL, "source_type" character varying(64), "category" character varying(32) NOT NULL, "name" character varying(255), "provider" character varying(32), "region" character varying(64), "environment" character varying(32), CONSTRAINT "PK_29675ba74256c5247ab9e690b25" PRIMARY KEY ("tenant_id", "platform_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "service_resources" ("tenant_id" uuid NOT NULL, "service_id" integer NOT NULL, "platform_id" character varying(512) NOT NULL, CONSTRAINT "PK_aed491e24a17355de17b5198b53" PRIMARY KEY ("tenant_id", "service_id", "platform_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_6d107c968e94979f230f158d1f" ON "service_resources"  ("tenant_id", "platform_id") `);
    await queryRunner.query(
      `ALTER TABLE "applications" ADD CONSTRAINT "FK_06b5376fd696c7bffaaa6109fc9" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "application_graph_selections" ADD CONSTRAINT "FK_5629c8a01bbacb8b698b6e6b61f" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "integration_settings" ADD CONSTRAINT "FK_bc4e8b731003263c56f6149e081" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "application_owners" ADD CONSTRAINT "FK_ed31d300201d9d5a7a89ec987d4" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "inventory_services" ADD CONSTRAINT "FK_6d5a89f8dc5633b741b011ffce4" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "application_services" ADD CONSTRAINT "FK_007ce00a8954b8c081c031815e0" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "application_services" ADD CONSTRAINT "FK_df6d82aed730d5beb1d2e5fcccd" FOREIGN KEY ("tenant_id", "service_id") REFERENCES "inventory_services"("tenant_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "code_roots" ADD CONSTRAINT "FK_964ff4f5513fd11b4ae30b47b19" FOREIGN KEY ("tenant_id", "service_id") REFERENCES "inventory_services"("tenant_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "service_finding_counts" ADD CONSTRAINT "FK_d6ec2e4e2dd10dedb94c5bf21e7" FOREIGN KEY ("tenant_id", "service_id") REFERENCES "inventory_services"("tenant_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "package_observations" ADD CONSTRAINT "FK_417aa5944bebff52ef64713d9e9" FOREIGN KEY ("tenant_id", "service_id") REFERENCES "inventory_services"("tenant_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "inventory_relations" ADD CONSTRAINT "FK_4edf714e9d784bb1fb242f7a07e" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "resources" ADD CONSTRAINT "FK_815c88644712b96b7a9f10e3582" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "service_resources" ADD CONSTRAINT "FK_312b5dfd37156559750976f1084" FOREIGN KEY ("tenant_id", "service_id") REFERENCES "inventory_services"("tenant_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "service_resources" ADD CONSTRAINT "FK_6d107c968e94979f230f158d1fe" FOREIGN KEY ("tenant_id", "platform_id") REFERENCES "resources"("tenant_id","platform_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "service_resources" DROP CONSTRAINT "FK_6d107c968e94979f230f158d1fe"`);
    await queryRunner.query(`ALTER TABLE "service_resources" DROP CONSTRAINT "FK_312b5dfd37156559750976f1084"`);
    await queryRunner.query(`ALTER TABLE "resources" DROP CONSTRAINT "FK_815c88644712b96b7a9f10e3582"`);
    await queryRunner.query(`ALTER TABLE "inventory_relations" DROP CONSTRAINT "FK_4edf714e9d784bb1fb242f7a07e"`);
    await queryRunner.query(`ALTER TABLE "package_observations" DROP CONSTRAINT "FK_417aa5944bebff52ef64713d9e9"`);
    await queryRunner.query(`ALTER TABLE "service_finding_counts" DROP CONSTRAINT "FK_d6ec2e4e2dd10dedb94c5bf21e7"`);
    await queryRunner.query(`ALTER TABLE "code_roots" DROP CONSTRAINT "FK_964ff4f5513fd11b4ae30b47b19"`);
    await queryRunner.query(`ALTER TABLE "application_services" DROP CONSTRAINT "FK_df6d82aed730d5beb1d2e5fcccd"`);
    await queryRunner.query(`ALTER TABLE "application_services" DROP CONSTRAINT "FK_007ce00a8954b8c081c031815e0"`);
    await queryRunner.query(`ALTER TABLE "inventory_services" DROP CONSTRAINT "FK_6d5a89f8dc5633b741b011ffce4"`);
    await queryRunner.query(`ALTER TABLE "application_owners" DROP CONSTRAINT "FK_ed31d300201d9d5a7a89ec987d4"`);
    await queryRunner.query(`ALTER TABLE "integration_settings" DROP CONSTRAINT "FK_bc4e8b731003263c56f6149e081"`);
    await queryRunner.query(`ALTER TABLE "application_graph_selections" DROP CONSTRAINT "FK_5629c8a01bbacb8b698b6e6b61f"`);
    await queryRunner.query(`ALTER TABLE "applications" DROP CONSTRAINT "FK_06b5376fd696c7bffaaa6109fc9"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6d107c968e94979f230f158d1f"`);
    await queryRunner.query(`DROP TABLE "service_resources"`);
    await queryRunner.query(`DROP TABLE "resources"`);
    await queryRunner.query(`DROP TABLE "inventory_relations"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c383bed5bd093ef03b0277572e"`);
    await queryRunner.query(`DROP TABLE "package_observations"`);
    await queryRunner.query(`DROP TABLE "service_finding_counts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_964ff4f5513fd11b4ae30b47b1"`);
    await queryRunner.query(`DROP TABLE "code_roots"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_df6d82aed730d5beb1d2e5fccc"`);
    await queryRunner.query(`DROP TABLE "application_services"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_932ab359c1a4c6510e3bbf4eab"`);
    await queryRunner.query(`DROP TABLE "inventory_services"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1835c8041dbc931cc10afb9e14"`);
    await queryRunner.query(`DROP TABLE "application_owners"`);
    await queryRunner.query(`DROP TABLE "integration_settings"`);
    await queryRunner.query(`DROP TABLE "application_graph_selections"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8980f0c12032ea35f39c00ed83"`);
    await queryRunner.query(`DROP TABLE "applications"`);
  }
}
