import {
  argvLeakProbe,
  commitAttributionProbe,
  contextFilesProbe,
  invalidSettingsProbe,
  latencyProbe,
  quotaHeadlessProbe,
  sessionCollisionProbe,
  streamJsonProbe,
  transient429Probe,
  versionProbe,
} from './probes/headless.js';
import {
  autoUpdateProbe,
  ciHeadlessProbe,
  ctrlCProbe,
  escapeCancelsProbe,
  memoryShowProbe,
  positionalPromptProbe,
  quitProbe,
  quotaInteractiveProbe,
  transient429InteractiveProbe,
  turnEdgesProbe,
} from './probes/interactive.js';
import {
  clearRotatesProbe,
  eagerBirthProbe,
  foldProbe,
  projectSlugProbe,
  resumeAcrossHomesProbe,
} from './probes/transcript.js';
import { TURN_END_PROBES } from './probes/turn-end.js';
import type { Probe } from './types.js';

export { runProbes, renderDriftTable } from './runner.js';

/** Every probe, in the order the suite runs them (cheap, no-TTY ones first). */
export const PROBES: readonly Probe[] = [
  versionProbe,
  invalidSettingsProbe,
  streamJsonProbe,
  projectSlugProbe,
  foldProbe,
  argvLeakProbe,
  contextFilesProbe,
  sessionCollisionProbe,
  latencyProbe,
  quotaHeadlessProbe,
  transient429Probe,
  commitAttributionProbe,
  resumeAcrossHomesProbe,
  ciHeadlessProbe,
  positionalPromptProbe,
  eagerBirthProbe,
  turnEdgesProbe,
  memoryShowProbe,
  clearRotatesProbe,
  quotaInteractiveProbe,
  transient429InteractiveProbe,
  escapeCancelsProbe,
  quitProbe,
  ctrlCProbe,
  ...TURN_END_PROBES,
  autoUpdateProbe,
];

/** The probes named in `only` (all when empty); unknown names are returned for an error message. */
export function selectProbes(only: readonly string[]): { probes: Probe[]; unknown: string[] } {
  if (only.length === 0) return { probes: [...PROBES], unknown: [] };
  const byName = new Map(PROBES.map((p) => [p.name, p]));
  const unknown = only.filter((n) => !byName.has(n));
  return { probes: PROBES.filter((p) => only.includes(p.name)), unknown };
}
