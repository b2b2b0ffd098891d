import { describe, expect, it } from 'vitest';
import { normalizeToolName } from '../../src/gemini/tools.js';

describe('normalizeToolName', () => {
  it.each([
    ['read_file', 'read'],
    ['read_many_files', 'read'],
    ['write_file', 'write'],
    ['replace', 'edit'],
    ['run_shell_command', 'shell'],
    ['glob', 'glob'],
    ['grep_search', 'grep'],
    ['search_file_content', 'grep'],
    ['list_directory', 'ls'],
    ['web_fetch', 'webfetch'],
    ['google_web_search', 'websearch'],
    ['write_todos', 'todo'],
    ['tracker_create_task', 'todo'],
    ['save_memory', 'memory'],
    ['activate_skill', 'skill'],
    ['invoke_agent', 'agent'],
    ['enter_plan_mode', 'plan'],
    ['exit_plan_mode', 'plan'],
    // display names the TUI and transcript records carry
    ['ReadFolder', 'ls'],
    ['Shell', 'shell'],
    ['Edit', 'edit'],
    ['FindFiles', 'glob'],
    ['SearchText', 'grep'],
    ['GoogleSearch', 'websearch'],
    [' READ_FILE ', 'read'],
    // unknown and MCP tools
    ['mcp__github__create_issue', 'other'],
    ['bash', 'other'],
    ['', 'other'],
  ])('%s → %s', (name, kind) => {
    expect(normalizeToolName(name)).toBe(kind);
  });

  it('knows every built-in 0.42.0 tool the model can call (bundle §8)', () => {
    for (const name of [
      'glob',
      'grep_search',
      'list_directory',
      'read_file',
      'run_shell_command',
      'write_file',
      'replace',
      'google_web_search',
      'write_todos',
      'web_fetch',
      'save_memory',
      'activate_skill',
      'invoke_agent',
      'enter_plan_mode',
      'exit_plan_mode',
    ]) {
      expect(normalizeToolName(name)).not.toBe('other');
    }
  });
});
