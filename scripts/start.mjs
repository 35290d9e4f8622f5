// `npm start`: set everything up, then run the whole fleet with the simulated vendors under
// one supervisor (a crashed service is restarted; Ctrl-C stops everything), and print the
// base URL and a working API key (also written to .svc/dev.env).
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { setup, envFor, root, seedDevelopment, developmentByokKey, developmentFilesKey } from './setup.mjs';

const require = createRequire(import.meta.url);

async function main() {
  await setup({ environmentsToPrepare: ['development'] });
  const port = Number(process.env.EDGE_PORT ?? 8080);
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const env = { BYOK_ENCRYPTION_KEY: developmentByokKey(), FILES_ENCRYPTION_KEY: developmentFilesKey(), ...process.env, ...envFor('development'), NODE_ENV: 'development', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' };
  const seeded = seedDevelopment(env, baseUrl);
  const { startFleet } = require(join(root, 'libs/fleet/dist/index.js'));
  // `npm start -- --replicas N`: N edges behind a local round-robin balancer on the edge port,
  // N routers and N billings reached in turn by every edge.
  const replicasArg = process.argv.indexOf('--replicas');
  const replicas = replicasArg > 0 ? Math.max(1, Number(process.argv[replicasArg + 1]) || 1) : 1;
  const fleet = await startFleet({
    root,
    env,
    replicas: { edge: replicas, router: replicas, billing: replicas },
    ports: { edge: port, router: 50051, billing: 50052, conversations: 50053, batch: 50054, vendorSim: 8090, workersHealth: 8081 },
    logDir: join(root, '.svc', 'logs'),
    restart: true,
    onEvent: (message) => process.stdout.write(`svc: ${message}\n`),
  });
  process.stdout.write(`\nsvc is running (logs in .svc/logs/)\n\n  SVC_BASE_URL=${fleet.baseUrl}\n  SVC_API_KEY=${seeded.key}\n\n(also in .svc/dev.env)  Try:\n  curl "${fleet.baseUrl}/chat/completions" -H "Authorization: Bearer ${seeded.key}" -d '{"model":"vendor-1/orion-mini-5","messages":[{"role":"user","content":"hi"}]}'\n\nCtrl-C stops everything.\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nsvc: stopping\n');
    await fleet.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(`svc start: ${error.message}\n`);
  process.exit(1);
});
