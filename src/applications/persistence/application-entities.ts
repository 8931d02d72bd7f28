import { ApplicationOwnerEntity } from './application-owner.entity';
import { ApplicationServiceEntity } from './application-service.entity';
import { ApplicationEntity } from './application.entity';

/** The applications module's entities (applications, membership, owners), for src/database/entities.ts. */
export const APPLICATION_ENTITIES = [ApplicationEntity, ApplicationServiceEntity, ApplicationOwnerEntity];
