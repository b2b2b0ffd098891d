/**
 * The login screen scraper on screens captured live from gemini 0.42.0 (tmux 3.3a, 250x60, `capture-pane -p -J`,
 * NO_BROWSER=true, selectedType oauth-personal, no creds, token endpoint played by test/harness/oauth-proxy.ts):
 * the first prompt, the screen after a wrong code, and the screen after the second wrong code (CLI exited 41).
 */
import { describe, expect, it } from 'vitest';
import { detectAuthWall, lastWords, loginEnv, readLoginScreen } from '../../src/gemini/login.js';
import { baseEnv } from '../../src/gemini/spawn.js';
import { SCREEN_TEXTS } from '../../src/gemini/screen.js';

const AWAITING_FIRST_CODE: string[] = [
  'Please visit the following URL to authorize the application:',
  '',
  'https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=https%3A%2F%2Fcodeassist.google.com%2Fauthcode&access_type=offline&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.profile&code_challenge_method=S256&code_challenge=nV4ESsBEnB0I0vURcW9Q6vpOM1qbPuGD0pqD9uNFzds&state=1bda0a2f9011a7d38a28207d9a8b68c0e5ad1ebe1b0242790147e9ccb24abf24&response_type=code&client_id=681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  '',
  'Enter the authorization code:',
];

const AFTER_WRONG_CODE: string[] = [
  'Please visit the following URL to authorize the application:',
  '',
  'https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=https%3A%2F%2Fcodeassist.google.com%2Fauthcode&access_type=offline&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.profile&code_challenge_method=S256&code_challenge=nV4ESsBEnB0I0vURcW9Q6vpOM1qbPuGD0pqD9uNFzds&state=1bda0a2f9011a7d38a28207d9a8b68c0e5ad1ebe1b0242790147e9ccb24abf24&response_type=code&client_id=681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  '',
  'Enter the authorization code: bad1',
  'Failed to authenticate with authorization code:invalid_grant',
  '',
  'Failed to authenticate with user code. Retrying...',
  'Please visit the following URL to authorize the application:',
  '',
  'https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=https%3A%2F%2Fcodeassist.google.com%2Fauthcode&access_type=offline&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.profile&code_challenge_method=S256&code_challenge=GCte4WG0hm2YDFD15vvVXXfNe8pMFhazU37rqt1l1Vk&state=f56982356ed740debc17ccc1665a8fffce988faef1abed183b3f855994cd48bf&response_type=code&client_id=681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  '',
  'Enter the authorization code:',
];

const GAVE_UP: string[] = [
  'Failed to authenticate with user code.',
  'Failed to authenticate with authorization code: invalid_grant',
  'Failed to authenticate with authorization code: invalid_grant',
  'Error authenticating: FatalAuthenticationError: Failed to authenticate with user code.',
  '    at initOauthClient (file:///work/main/node_modules/@google/gemini-cli/bundle/chunk-7VVHSNDQ.js:245520:13)',
  '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  '    at async createCodeAssistContentGenerator (file:///work/main/node_modules/@google/gemini-cli/bundle/chunk-7VVHSNDQ.js:273665:24)',
  '    at async file:///work/main/node_modules/@google/gemini-cli/bundle/chunk-7VVHSNDQ.js:274015:42',
  '    at async createContentGenerator (file:///work/main/node_modules/@google/gemini-cli/bundle/chunk-7VVHSNDQ.js:273972:21)',
  '    at async Config.refreshAuth (file:///work/main/node_modules/@google/gemini-cli/bundle/chunk-7VVHSNDQ.js:336111:29)',
  '    at async main (file:///work/main/node_modules/@google/gemini-cli/bundle/gemini-QSTQ2DBG.js:15890:9) {',
  '  exitCode: 41',
  '}',
  'Failed to authenticate with user code.',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  'Pane is dead (status 41, Wed Dec  2 12:12:21 2026)',
];

/** Interactive run (160x40) with seeded creds whose refresh the fake token endpoint refused. */
const REFRESH_REFUSED_INTERACTIVE: string[] = [
  'Please visit the following URL to authorize the application:',
  '',
  'https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=https%3A%2F%2Fcodeassist.google.com%2Fauthcode&access_type=offline&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.profile&code_challenge_method=S256&code_challenge=Ewty77l9smLLNrmx-SCtACx9nfp7R7BXCbykUI8aDj8&state=b34d0f1f1679fc544c2806523db8ba5c2a4d7f1dad08db2188342cf9483547a3&response_type=code&client_id=681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  '',
  'Enter the authorization code:',
];

/** Interactive run (160x40) whose loadCodeAssist answered like Google's refusal of a consumer account. */
const ACCOUNT_REFUSED_INTERACTIVE: string[] = [
  '   ▝▜▄    █▌     █▙▟  ▐█▝█▛▐█ ▐█ ▐█▝█▖█▌ █▌',
  '  ▗▟▀     ▜▙ ▝█▛ █▌▝ ▖▐█   ▐█ ▐█ ▐█ ▝██▌ █▌',
  ' ▝▀        ▀▀▀▀▘▝▀▀▀▀▘▀▀▘  ▀▀▘▀▀▘▀▀▘ ▝▀▀▝▀▀',
  '',
  ' Gemini CLI v0.42.0',
  '',
  '',
  '',
  'Tips for getting started:',
  '1. Create GEMINI.md files to customize your interactions',
  '2. /help for more information',
  '3. Ask coding questions, edit code or run commands',
  '4. Be specific for the best results',
  '',
  'ℹ Positional arguments now default to interactive mode. To run in non-interactive mode, use the --prompt (-p) flag.',
  '',
  '⚠  Warning: True color (24-bit) support not detected. Using a terminal with true color enabled will result in a better visual experience.',
  '',
  '',
  '╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮',
  '│                                                                                                                                                              │',
  '│ ? Get started                                                                                                                                                │',
  '│                                                                                                                                                              │',
  '│   How would you like to authenticate for this project?                                                                                                       │',
  '│                                                                                                                                                              │',
  '│   ● 1. Sign in with Google                                                                                                                                   │',
  '│     2. Use Gemini API Key                                                                                                                                    │',
  '│     3. Vertex AI                                                                                                                                             │',
  '│                                                                                                                                                              │',
  '│   Failed to sign in. Message: Gemini Code Assist for individuals is no longer available for this account. Use a Gemini API key or a Code Assist Standard or  │',
  '│   Enterprise subscription.                                                                                                                                   │',
  '│                                                                                                                                                              │',
  '│   (Use Enter to select)                                                                                                                                      │',
  '│                                                                                                                                                              │',
  '│   Terms of Services and Privacy Notice for Gemini CLI                                                                                                        │',
  '│                                                                                                                                                              │',
  '│   https://geminicli.com/docs/resources/tos-privacy/                                                                                                          │',
  '│                                                                                                                                                              │',
  '╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯',
];

describe('readLoginScreen', () => {
  it('finds the URL and the code prompt on the first screen', () => {
    const s = readLoginScreen(AWAITING_FIRST_CODE);
    expect(s.urlCount).toBe(1);
    expect(s.url).toMatch(
      /^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\?redirect_uri=https%3A%2F%2Fcodeassist\.google\.com%2Fauthcode&/,
    );
    expect(s.url).toContain('code_challenge_method=S256');
    expect(s.url).not.toMatch(/\s/);
    expect(s.awaitingCode).toBe(true);
    expect(s.refusals).toEqual([]);
    expect(s.failure).toBeUndefined();
  });

  it('takes the LAST URL after a wrong code, with the server reason', () => {
    const s = readLoginScreen(AFTER_WRONG_CODE);
    const first = readLoginScreen(AWAITING_FIRST_CODE).url;
    expect(s.urlCount).toBe(2);
    expect(s.url).toBeDefined();
    expect(s.url).not.toBe(first);
    // a fresh PKCE state per attempt
    expect(new URL(s.url as string).searchParams.get('state')).not.toBe(
      new URL(first as string).searchParams.get('state'),
    );
    expect(s.awaitingCode).toBe(true);
    expect(s.refusals).toEqual(['invalid_grant']);
    expect(s.failure).toBeUndefined();
  });

  it('is not awaiting a code between the wrong code and the new URL', () => {
    const cut = AFTER_WRONG_CODE.findIndex((l) => l.includes('Retrying'));
    const s = readLoginScreen(AFTER_WRONG_CODE.slice(0, cut + 1));
    expect(s.urlCount).toBe(1);
    // the old prompt is still the last prompt after the only URL; the caller compares with the URL it answered
    expect(s.url).toBe(readLoginScreen(AWAITING_FIRST_CODE).url);
  });

  it('reports the final failure after the second wrong code', () => {
    const s = readLoginScreen(GAVE_UP);
    expect(s.failure).toBe('Failed to authenticate with user code.');
    expect(s.awaitingCode).toBe(false);
    expect(s.refusals.length).toBeGreaterThanOrEqual(2);
  });

  it('does not take "Retrying..." as the final failure', () => {
    expect(SCREEN_TEXTS.gaveUp.test('Failed to authenticate with user code. Retrying...')).toBe(false);
    expect(SCREEN_TEXTS.gaveUp.test('Failed to authenticate with user code.')).toBe(true);
  });

  it('an empty screen has nothing', () => {
    expect(readLoginScreen([])).toEqual({ urlCount: 0, awaitingCode: false, refusals: [] });
  });
});

describe('lastWords', () => {
  it('prefers an error line and skips stack frames and the dead-pane banner', () => {
    expect(lastWords(GAVE_UP)).toBe('Failed to authenticate with user code.');
    expect(
      lastWords([
        'starting',
        'Error in /x/settings.json: Unexpected end of JSON input',
        '',
        'Pane is dead (status 52)',
      ]),
    ).toBe('Error in /x/settings.json: Unexpected end of JSON input');
    expect(lastWords([])).toBeUndefined();
  });
});

describe('detectAuthWall (interactive runs)', () => {
  it('a refused refresh falls back to the paste-the-code prompt', () => {
    expect(detectAuthWall(REFRESH_REFUSED_INTERACTIVE)).toEqual({
      kind: 'login-required',
      url: expect.stringMatching(/^https:\/\/accounts\.google\.com\//),
    });
  });

  it("a refused account shows the auth dialog with the server's message, unwrapped from the box", () => {
    expect(detectAuthWall(ACCOUNT_REFUSED_INTERACTIVE)).toEqual({
      kind: 'sign-in-failed',
      message:
        'Gemini Code Assist for individuals is no longer available for this account. Use a Gemini API key or a Code Assist Standard or Enterprise subscription.',
    });
  });

  it('the bare auth dialog, and a normal screen', () => {
    const bare = ACCOUNT_REFUSED_INTERACTIVE.filter(
      (l) => !/Failed to sign in|Enterprise subscription/.test(l),
    );
    expect(detectAuthWall(bare)).toEqual({ kind: 'auth-dialog' });
    expect(detectAuthWall(ACCOUNT_REFUSED_INTERACTIVE.slice(0, 12))).toBeUndefined();
  });
});

describe('loginEnv', () => {
  it('takes from the source environment exactly what a run takes, through the same guard', () => {
    const source: NodeJS.ProcessEnv = {
      PATH: '/usr/bin',
      HOME: '/home/op',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy:3128',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      CI: 'true',
      GITHUB_TOKEN: 'ghs_secret',
      INPUT_GEMINI_API_KEY: 'secret',
      NODE_OPTIONS: '--inspect',
      AWS_SECRET_ACCESS_KEY: 'secret',
    };
    const env = loginEnv('/login/home', '/login/tmp', source);
    const computed = ['TERM', 'GEMINI_CLI_HOME', 'TMPDIR', 'NO_BROWSER', 'GEMINI_CLI_NO_RELAUNCH'];
    const copied = Object.keys(env).filter((k) => !computed.includes(k));
    expect(copied.sort()).toEqual(Object.keys(baseEnv(source)).sort());
    expect(copied.sort()).toEqual(['HOME', 'HTTPS_PROXY', 'LC_ALL', 'NODE_EXTRA_CA_CERTS', 'PATH']);
  });
});
