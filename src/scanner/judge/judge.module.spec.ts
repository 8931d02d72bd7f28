import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig, type AppConfig } from '../../config/app-config';
import { APP_CONFIG, ConfigModule } from '../../config/config.module';
import type { Judge } from '../engine/scan-report.types';
import { AnthropicJudge } from './anthropic-judge';
import { JudgeModule } from './judge.module';
import { JUDGE } from './judge.token';
import { NoneJudge } from './none-judge';
import { OpenAiJudge } from './openai-judge';

const SETTINGS = 'TEST_JUDGE_SETTINGS';

@Module({ providers: [{ provide: SETTINGS, useValue: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9/v1' } }], exports: [SETTINGS] })
class SettingsModule {}

describe('JudgeModule', () => {
  it('forRoot binds JUDGE to the configured provider', async () => {
    const ref = await Test.createTestingModule({ imports: [JudgeModule.forRoot({ provider: 'none' })] }).compile();
    expect(ref.get<Judge>(JUDGE)).toBeInstanceOf(NoneJudge);
  });

  it('forRootAsync builds the judge from injected config', async () => {
    const ref = await Test.createTestingModule({
      imports: [JudgeModule.forRootAsync({ imports: [SettingsModule], inject: [SETTINGS], useFactory: (s: never) => s })],
    }).compile();
    expect(ref.get<Judge>(JUDGE)).toBeInstanceOf(OpenAiJudge);
  });

  it('fails module creation on invalid options', async () => {
    await expect(Test.createTestingModule({ imports: [JudgeModule.forRoot({ provider: 'openai' })] }).compile()).rejects.toThrow(/JUDGE_MODEL is required/);
  });
});

describe('JudgeModule wired from the validated AppConfig', () => {
  it('accepts AppConfig.judge as options (JUDGE_* from the environment)', async () => {
    const config = loadConfig({ JUDGE_PROVIDER: 'anthropic', JUDGE_MODEL: 'claude-test', JUDGE_API_KEY: 'k', JUDGE_TIMEOUT_MS: '1500' }, []);
    const ref = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), JudgeModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (c: AppConfig) => c.judge })],
    }).compile();
    expect(ref.get<Judge>(JUDGE)).toBeInstanceOf(AnthropicJudge);
  });

  it('defaults to the none judge when JUDGE_PROVIDER is unset', async () => {
    const ref = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(loadConfig({}, [])), JudgeModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (c: AppConfig) => c.judge })],
    }).compile();
    expect(ref.get<Judge>(JUDGE)).toBeInstanceOf(NoneJudge);
  });
});
