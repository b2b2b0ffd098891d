/**
 * A process signalled while it changes the host, for test/integration/signal-teardown.test.ts. It signals itself
 * (SIGINT, as Ctrl-C or a cancelled job does) in the middle of the change and goes on as a run's code would; the
 * test looks at what is left once it is gone.
 * `node --import tsx test/harness/signal-during-setup.ts steps <dir>`: ten steps, one file each, signalled after
 *   the third; the undo removes the files it finds, slowly.
 * `node --import tsx test/harness/signal-during-setup.ts late <dir>`: a claim taken and guarded after the signal,
 *   while an earlier teardown still runs.
 * `node --import tsx test/harness/signal-during-setup.ts egress <uid> <ms|installed>`: the real packet filter for
 *   `uid`, signalled `ms` into its installation, or once it is installed.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { installEgressFilter } from '../../src/isolation/egress-filter.js';
import { guardHostChange, guardSignalTeardown } from '../../src/util/process.js';

const [mode, arg, ms] = process.argv.slice(2) as [string, string, string | undefined];
const sigint = () => process.kill(process.pid, 'SIGINT');

if (mode === 'steps') {
  const undo = async () => {
    for (const f of await readdir(arg)) {
      await rm(join(arg, f), { force: true });
      await delay(20);
    }
  };
  const { made } = guardHostChange(async (step) => {
    for (let i = 1; i <= 10; i++) {
      step();
      await writeFile(join(arg, `rule-${i}`), '');
      if (i === 3) sigint();
      await delay(30);
    }
  }, undo);
  await made.catch((e: unknown) => process.stdout.write(`made: ${(e as Error).message}\n`));
} else if (mode === 'late') {
  // The earlier teardown lasts until the claim is guarded, so the claim is always taken during the teardowns.
  let guarded: () => void = () => undefined;
  const claimGuarded = new Promise<void>((resolve) => (guarded = resolve));
  guardSignalTeardown(() => claimGuarded);
  sigint();
  await delay(50);
  const claim = join(arg, 'claim');
  await writeFile(claim, '');
  guardSignalTeardown(() => rm(claim, { force: true }));
  process.stdout.write('claim guarded\n');
  guarded();
} else if (mode === 'egress') {
  const after = ms === 'installed';
  if (!after) setTimeout(sigint, Number(ms));
  await installEgressFilter({ uid: Number(arg), ports: [], privilege: 'root' }).then(
    () => process.stdout.write('installed\n'),
    (e: unknown) => process.stdout.write(`install: ${(e as Error).message}\n`),
  );
  if (after) sigint();
}
// A run's code goes on (its other steps, its own `finally`) until the teardowns end the process.
await delay(5_000);
process.stdout.write('not ended by the signal\n');
