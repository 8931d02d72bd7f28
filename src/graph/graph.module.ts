import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApplicationsModule } from '../applications/applications.module';
import { GraphController } from './graph.controller';
import { GraphService } from './graph.service';
import { GraphRepository } from './persistence/graph.repository';

@Module({
  imports: [ApplicationsModule],
  controllers: [GraphController],
  providers: [{ provide: GraphRepository, inject: [DataSource], useFactory: (ds: DataSource) => new GraphRepository(ds) }, GraphService],
  exports: [GraphService],
})
export class GraphModule {}
