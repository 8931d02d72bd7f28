import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions, createDataSource } from './src/database/data-source-options';

/** DataSource for the TypeORM CLI (migration:generate / run / drift check); same options as the app. */
export default createDataSource(buildDataSourceOptions(loadConfig()));
