/**
 * A small list of very popular PyPI/npm names, used only to spot look-alikes one or two edits
 * away. It is not an allow-list: unknown names are fine; near-misses of these are suspicious.
 */
export const POPULAR_PACKAGES: ReadonlySet<string> = new Set([
  'requests', 'urllib3', 'colorama', 'numpy', 'pandas', 'scipy', 'matplotlib', 'django', 'flask', 'fastapi',
  'pydantic', 'boto3', 'botocore', 'setuptools', 'pyyaml', 'cryptography', 'pillow', 'jinja2', 'click',
  'pytest', 'beautifulsoup4', 'selenium', 'tensorflow', 'torch', 'scikit-learn', 'openai', 'anthropic',
  'httpx', 'aiohttp', 'sqlalchemy', 'psycopg2', 'redis', 'celery', 'paramiko', 'python-dateutil', 'certifi',
  'idna', 'charset-normalizer', 'six', 'attrs', 'packaging', 'typing-extensions', 'rich', 'tqdm', 'uvicorn',
  'express', 'lodash', 'react', 'react-dom', 'axios', 'chalk', 'commander', 'moment', 'dotenv', 'typescript',
  'webpack', 'eslint', 'prettier', 'jest', 'mocha', 'vue', 'next', 'nuxt', 'svelte', 'angular', 'jquery',
  'underscore', 'request', 'debug', 'uuid', 'yargs', 'inquirer', 'mongoose', 'sequelize', 'knex', 'pg',
  'mysql', 'mysql2', 'mssql', 'socket.io', 'ws', 'body-parser', 'cors', 'helmet', 'nodemon', 'rimraf', 'glob',
  'minimist', 'semver', 'colors', 'async', 'bluebird', 'cross-env', 'electron', 'puppeteer', 'playwright',
  'vite', 'esbuild', 'rollup', 'babel-core', 'zod', 'ajv', 'jsonwebtoken', 'bcrypt', 'passport', 'graphql',
  'date-fns', 'dayjs', 'node-fetch', 'form-data', 'tslib', 'rxjs', 'ramda', 'immer', 'redux', 'mobx',
]);
