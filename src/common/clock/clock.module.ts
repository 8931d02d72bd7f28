import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { SystemClock } from './system-clock';

export interface ClockModuleOptions {
  /** Defaults to the system clock; tests pass a FakeClock (test/fakes/fake-clock.ts). */
  clock?: Clock;
}

/** Provides the global {@link Clock}. Override in tests with `.overrideProvider(Clock).useValue(fake)`. */
@Global()
@Module({})
export class ClockModule {
  static forRoot(options: ClockModuleOptions = {}): DynamicModule {
    return {
      module: ClockModule,
      providers: [{ provide: Clock, useValue: options.clock ?? new SystemClock() }],
      exports: [Clock],
    };
  }

  static forRootAsync(options: {
    imports?: DynamicModule['imports'];
    inject?: (string | symbol | (abstract new (...args: never[]) => unknown))[];
    useFactory: (...args: never[]) => Clock | Promise<Clock>;
  }): DynamicModule {
    return {
      module: ClockModule,
      imports: options.imports ?? [],
      providers: [{ provide: Clock, inject: options.inject ?? [], useFactory: options.useFactory }],
      exports: [Clock],
    };
  }
}
