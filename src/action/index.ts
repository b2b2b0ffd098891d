// First: the event file is hidden from @actions/github's load-time parse (load-guard.ts).
import { restoreEventPath } from './load-guard.js';
import { run } from './main.js';

restoreEventPath();
void run();
