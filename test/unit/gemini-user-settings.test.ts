import { describe, expect, it } from 'vitest';
import { buildUserSettings, parseSettingsInput } from '../../src/gemini/user-settings.js';

describe('buildUserSettings', () => {
  it('keeps the workflow keys, maps the tool inputs to the CLI keys and drops what the product owns', () => {
    const { settings, overridden } = buildUserSettings({
      settings: parseSettingsInput(
        JSON.stringify({
          ui: { hideTips: true },
          general: { enableAutoUpdate: true, vimMode: true, sessionRetention: { enabled: true } },
          telemetry: { enabled: false },
          tools: { exclude: ['web_fetch'], shell: { enableInteractiveShell: true } },
          context: { fileName: 'MINE.md' },
        }),
      ),
      allowedTools: ['read_file', 'run_shell_command(git)'],
      excludeTools: ['write_file'],
    });
    expect(settings).toEqual({
      ui: { hideTips: true },
      general: { vimMode: true },
      tools: { exclude: ['web_fetch', 'write_file'], core: ['read_file', 'run_shell_command(git)'] },
    });
    expect(overridden.sort()).toEqual(
      [
        'context.fileName',
        'general.enableAutoUpdate',
        'general.sessionRetention.enabled',
        'telemetry.enabled',
        'tools.shell.enableInteractiveShell',
      ].sort(),
    );
  });

  it('writes nothing for empty inputs', () => {
    expect(buildUserSettings({ settings: {}, allowedTools: [], excludeTools: [] })).toEqual({
      settings: {},
      overridden: [],
    });
  });
});
