/**
 * The context file names the CLI loads in a repository, in every directory it walks: the ones the run's settings
 * name (CONTEXT_FILE_NAMES), and the ones a workspace `.gemini/settings.json` names (a trusted folder's workspace
 * settings override `context.fileName`). Read from commits in the vault, as objects: never from a checkout.
 */
import { z } from 'zod';
import { fileInCommits } from '../git/tree-file.js';
import { CONTEXT_FILE_NAMES, parseSettingsText } from './settings.js';

const WORKSPACE_SETTINGS_PATH = '.gemini/settings.json';

/** Larger workspace settings are not read for names (the CLI would load them; the path is protected anyway). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

const contextSchema = z.object({
  context: z.object({ fileName: z.union([z.string(), z.array(z.string())]) }),
});

/** Pure: the names a settings file's text gives `context.fileName` (trimmed as the CLI trims them), or none. */
function contextFileNamesIn(text: string): string[] {
  let settings: unknown;
  try {
    settings = parseSettingsText(text, WORKSPACE_SETTINGS_PATH);
  } catch {
    return [];
  }
  const parsed = contextSchema.safeParse(settings);
  if (!parsed.success) return [];
  const { fileName } = parsed.data.context;
  return (Array.isArray(fileName) ? fileName : [fileName]).map((n) => n.trim()).filter((n) => n !== '');
}

/** The names the CLI loads for the repository as it is at any of `commits` (in `repo`, the vault). */
export async function contextFileNamesAt(repo: string, commits: readonly string[]): Promise<string[]> {
  const files = await fileInCommits(repo, commits, WORKSPACE_SETTINGS_PATH, MAX_SETTINGS_BYTES);
  const names = new Set<string>(CONTEXT_FILE_NAMES);
  for (const bytes of files.values())
    for (const n of contextFileNamesIn(bytes.toString('utf8'))) names.add(n);
  return [...names];
}
