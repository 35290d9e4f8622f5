import type { Fleet } from '../../libs/fleet/src';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __svcFleet?: Fleet }).__svcFleet?.stop();
}
