/** The unit project's global setup: the harness's disk caches lose what the suite stopped asking (disk-cache.ts). */
import { pruneCaches } from './harness/disk-cache.js';

export default function setup(): void {
  pruneCaches();
}
