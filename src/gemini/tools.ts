/**
 * One tool vocabulary for both modes' summaries. The names are the ones Gemini CLI 0.42.0 registers
 * (bundle `tools/definitions`), plus its legacy alias `search_file_content` and the display names the
 * TUI shows, since a transcript record may carry either.
 */
import type { ToolKind } from '../domain/types.js';

const CANONICAL: Record<string, ToolKind> = {
  read_file: 'read',
  read_many_files: 'read',
  get_internal_docs: 'read',
  read_mcp_resource: 'read',
  read_background_output: 'read',
  write_file: 'write',
  replace: 'edit',
  run_shell_command: 'shell',
  list_background_processes: 'shell',
  glob: 'glob',
  grep_search: 'grep',
  search_file_content: 'grep',
  list_directory: 'ls',
  list_mcp_resources: 'ls',
  web_fetch: 'webfetch',
  google_web_search: 'websearch',
  write_todos: 'todo',
  tracker_create_task: 'todo',
  tracker_update_task: 'todo',
  tracker_get_task: 'todo',
  tracker_list_tasks: 'todo',
  tracker_add_dependency: 'todo',
  tracker_visualize: 'todo',
  save_memory: 'memory',
  activate_skill: 'skill',
  invoke_agent: 'agent',
  complete_task: 'agent',
  enter_plan_mode: 'plan',
  exit_plan_mode: 'plan',
};

/** Display names (ToolCallRecord.displayName), compared without case, spaces or underscores. */
const DISPLAY: Record<string, ToolKind> = {
  readfile: 'read',
  readmanyfiles: 'read',
  writefile: 'write',
  shell: 'shell',
  edit: 'edit',
  findfiles: 'glob',
  searchtext: 'grep',
  readfolder: 'ls',
  webfetch: 'webfetch',
  googlesearch: 'websearch',
  writetodos: 'todo',
  savememory: 'memory',
};

/** Maps a tool name (canonical, legacy alias or display name; any case) to its kind; unknown → 'other'. */
export function normalizeToolName(name: string): ToolKind {
  const key = name.trim().toLowerCase();
  return CANONICAL[key] ?? DISPLAY[key.replace(/[\s_-]/g, '')] ?? 'other';
}
