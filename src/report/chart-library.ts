/**
 * Chart.js (MIT, chart.js on npm), the charting library the HTML page inlines so that it draws offline from one
 * file: its UMD build, 210 KB minified. The build (scripts/build.mjs) puts the file's text into dist/cli.js as
 * `__GEMINI_RUN_CHART_JS__`, so the bundled CLI needs no node_modules; from the sources it is read from there.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

declare const __GEMINI_RUN_CHART_JS__: string | undefined;

/** Where the UMD build is, beside the package's main file (its exports map does not name it). */
function chartLibraryPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
}

export function chartLibrarySource(): string {
  if (typeof __GEMINI_RUN_CHART_JS__ === 'string') return __GEMINI_RUN_CHART_JS__;
  return readFileSync(chartLibraryPath(), 'utf8');
}
