import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { loadConfig } from './config/app-config';
import { createApp } from './create-app';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp({ config });
  await app.listen(config.port, config.host);
  // The bound port (PORT=0 picks a free one).
  const port = (app.getHttpServer().address() as AddressInfo).port;
  process.stdout.write(`Bulwark listening on http://localhost:${port} (API docs: http://localhost:${port}/docs)\n`);
}

main().catch((err: unknown) => {
  // Config errors name the variable; print them plainly and exit non-zero.
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
