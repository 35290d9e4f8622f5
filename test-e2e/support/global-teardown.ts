import { execFileSync } from 'node:child_process';
import type { Fleet } from '../../libs/fleet/src';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __svcFleet?: Fleet }).__svcFleet?.stop();
  const vhost = (globalThis as { __svcVhost?: string }).__svcVhost;
  if (vhost) execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
}
