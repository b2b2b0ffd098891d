/**
 * What a GitHub runner would do with a step's output: the workflow commands it would obey. Modelled on the
 * runner's ActionCommandManager: lines split on CR, LF or CRLF; a line is a command when it starts with `::`
 * after leading whitespace (`::name props::data`) or holds `##[name props]data` anywhere (the legacy syntax);
 * `::stop-commands::<token>` ignores every command until `::<token>::`. Unlike the runner, any command name
 * counts (not only the registered ones), so a test that uses this errs on the side of seeing a command.
 */
export interface RunnerCommand {
  name: string;
  data: string;
  line: string;
}

function parse(line: string): { name: string; data: string } | undefined {
  const t = line.replace(/^\s+/, '');
  if (t.startsWith('::')) {
    const end = t.indexOf('::', 2);
    if (end > 2) {
      const name = t.slice(2, end).split(' ', 1)[0] ?? '';
      if (name) return { name, data: t.slice(end + 2) };
    }
  }
  const legacy = line.indexOf('##[');
  if (legacy >= 0) {
    const rb = line.indexOf(']', legacy);
    if (rb > legacy + 3) {
      const name = line.slice(legacy + 3, rb).split(' ', 1)[0] ?? '';
      if (name) return { name, data: line.slice(rb + 1) };
    }
  }
  return undefined;
}

/** The commands a runner would obey in `log`, in order (stop-commands and its end are consumed). */
export function runnerCommands(log: string): RunnerCommand[] {
  const out: RunnerCommand[] = [];
  let stopToken: string | undefined;
  for (const line of log.split(/\r\n|\r|\n/)) {
    const c = parse(line);
    if (!c) continue;
    if (stopToken !== undefined) {
      if (c.name === stopToken) stopToken = undefined;
      continue;
    }
    if (c.name === 'stop-commands' && c.data.trim() !== '') stopToken = c.data.trim();
    else out.push({ ...c, line });
  }
  return out;
}
