import { type DynamicModule, type FactoryProvider, Module, type ModuleMetadata } from '@nestjs/common';
import { createJudge } from './create-judge';
import type { JudgeOptions } from './judge-options';
import { JUDGE } from './judge.token';

export interface JudgeModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...args: never[]) => JudgeOptions | Promise<JudgeOptions>;
}

/** Binds `JUDGE` to the judge chosen by JUDGE_PROVIDER (docs/judge.md "Configuration"). */
@Module({})
export class JudgeModule {
  static forRoot(options: JudgeOptions): DynamicModule {
    return {
      module: JudgeModule,
      providers: [{ provide: JUDGE, useFactory: () => createJudge(options) }],
      exports: [JUDGE],
    };
  }

  static forRootAsync(options: JudgeModuleAsyncOptions): DynamicModule {
    return {
      module: JudgeModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: JUDGE,
          inject: options.inject ?? [],
          useFactory: async (...args: never[]) => createJudge(await options.useFactory(...args)),
        },
      ],
      exports: [JUDGE],
    };
  }
}
