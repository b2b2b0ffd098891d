/**
 * `@actions/github` builds its `context` when it is loaded and parses GITHUB_EVENT_PATH then, so an empty or
 * non-JSON event file threw a raw `SyntaxError` stack before the action's own code ran (main and post step alike).
 * gemini-run never uses that context (context.ts reads the event itself, with a one-line error), so each entry
 * hides the variable, loads the step's modules with a dynamic import and gives it back. The import is dynamic
 * because static imports evaluate in the bundler's order: only the entry's own statements run in ours.
 */
export function hideEventPath(): () => void {
  const eventPath = process.env.GITHUB_EVENT_PATH;
  delete process.env.GITHUB_EVENT_PATH;
  return () => {
    if (eventPath !== undefined) process.env.GITHUB_EVENT_PATH = eventPath;
  };
}
