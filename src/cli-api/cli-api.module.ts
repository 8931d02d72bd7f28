import { Module } from '@nestjs/common';
import { CliApiController } from './cli-api.controller';
import { CliApiService } from './cli-api.service';

/** `GET /api/cli/whoami`, `GET /api/cli/config`, `POST /api/cli/telemetry` (needs RateLimitModule). */
@Module({ controllers: [CliApiController], providers: [CliApiService], exports: [CliApiService] })
export class CliApiModule {}
