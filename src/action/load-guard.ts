/**
 * Imported first by the action's entries, before anything that loads `@actions/github`: that package builds its
 * `context` when it is loaded and parses GITHUB_EVENT_PATH then, so an empty or non-JSON event file threw a raw
 * `SyntaxError` stack before the action's own code ran (main and post step alike). gemini-run never uses that
 * context (context.ts reads the event itself, with a one-line error), so the variable is hidden while the modules
 * load and given back by `restoreEventPath()` before the step starts.
 */
const eventPath = process.env.GITHUB_EVENT_PATH;
delete process.env.GITHUB_EVENT_PATH;

export function restoreEventPath(): void {
  if (eventPath !== undefined) process.env.GITHUB_EVENT_PATH = eventPath;
}
