import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { CliApiController } from './cli-api.controller';
import { CliApiService } from './cli-api.service';

/** `GET /api/cli/whoami`, `GET /api/cli/config`, `POST /api/cli/telemetry`. */
@Module({ imports: [AuthModule, RateLimitModule], controllers: [CliApiController], providers: [CliApiService], exports: [CliApiService] })
export class CliApiModule {}
