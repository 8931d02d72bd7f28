import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SettingsRepository } from './persistence/settings.repository';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

@Module({
  controllers: [SettingsController],
  providers: [{ provide: SettingsRepository, inject: [DataSource], useFactory: (ds: DataSource) => new SettingsRepository(ds) }, SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
