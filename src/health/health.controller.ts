import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/auth.decorators';
import { REDIS_CLIENT, type RedisClient } from '../database/redis.module';

const CHECK_TIMEOUT_MS = 1500;

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: the database (and Redis, when configured) answer' })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down' })
  ready() {
    const checks: HealthIndicatorFunction[] = [() => this.db.pingCheck('database', { timeout: CHECK_TIMEOUT_MS })];
    const redis = this.redis;
    if (redis) {
      checks.push(async () => {
        const indicator = this.indicators.check('redis');
        try {
          await Promise.race([redis.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref())]);
          return indicator.up();
        } catch {
          return indicator.down({ message: 'Redis did not answer' });
        }
      });
    }
    return this.health.check(checks);
  }
}
