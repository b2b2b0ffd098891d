// The main step's entry: its modules load with the event file hidden (load-guard.ts), then it runs.
import { hideEventPath } from './load-guard.js';

const restore = hideEventPath();
const { run } = await import('./main.js');
restore();
void run();
