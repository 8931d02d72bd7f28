import { Controller, Get, Inject, Logger } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorFunction, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import { REDIS_CLIENT, type RedisClient } from '../database/redis.module';

const CHECK_TIMEOUT_MS = 1500;

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
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
    const checks: HealthIndicatorFunction[] = [() => this.ping('database', 'Database did not answer', () => this.dataSource.query('SELECT 1'))];
    const redis = this.redis;
    if (redis) checks.push(() => this.ping('redis', 'Redis did not answer', () => redis.ping()));
    return this.health.check(checks);
  }

  /**
   * Up if `probe` answers within the timeout. The route is public, so a failure says only which
   * dependency is down: driver messages can name hosts and ports, and go to the log instead.
   */
  private async ping(key: string, downMessage: string, probe: () => Promise<unknown>) {
    const indicator = this.indicators.check(key);
    try {
      await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref())]);
      return indicator.up();
    } catch (err) {
      this.logger.warn(`readiness: ${key} is down (${err instanceof Error ? err.message : String(err)})`);
      return indicator.down({ message: downMessage });
    }
  }
}
