// The post step's entry: its modules load with the event file hidden (load-guard.ts), then it runs.
import { hideEventPath } from './load-guard.js';

const restore = hideEventPath();
const { post } = await import('./post-step.js');
restore();
void post();
