import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Global()
@Module({ controllers: [MetricsController], providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule implements NestModule {
  constructor(private readonly metrics: MetricsService) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((req: Request, res: Response, next: NextFunction) => {
        const stop = this.metrics.latency.startTimer();
        res.on('finish', () => {
          // The matched pattern (not the raw URL) keeps label cardinality bounded.
          const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
          const labels = { method: req.method, route: `${req.baseUrl ?? ''}${route}`, status: String(res.statusCode) };
          this.metrics.requests.inc(labels);
          stop(labels);
        });
        next();
      })
      .forRoutes('*path');
  }
}
