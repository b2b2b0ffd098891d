/**
 * The environment of a job step as hostile as a runner can make it: tokens, a proxy, NODE_OPTIONS, a CA, a model
 * URL, cloud credentials. The engine's child environment must keep none of it (test/unit/gemini-spawn.test.ts), and
 * the real gemini still runs from what is left (test/e2e/gemini-spawn-live.test.ts).
 */
export const hostileEnv: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/runner',
  USER: 'runner',
  LANG: 'C.UTF-8',
  LC_CTYPE: 'C.UTF-8',
  SHELL: '/bin/bash',
  TMPDIR: '/shared/tmp',
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_TOKEN: 'ghs_SECRET',
  GH_TOKEN: 'ghs_SECRET2',
  ACTIONS_RUNTIME_TOKEN: 'SECRET3',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'SECRET4',
  INPUT_GITHUB_TOKEN: 'SECRET5',
  'INPUT_GEMINI-API-KEY': 'SECRET6',
  RUNNER_TEMP: '/runner/tmp',
  NPM_TOKEN: 'SECRET7',
  AWS_SECRET_ACCESS_KEY: 'SECRET8',
  NODE_OPTIONS: '--require /evil.js',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector',
  GEMINI_CLI_INTEGRATION_TEST: 'true',
  HTTPS_PROXY: 'http://proxy:3128',
  no_proxy: 'localhost',
  NODE_EXTRA_CA_CERTS: '/ca.pem',
  GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
  GOOGLE_APPLICATION_CREDENTIALS: '/gha-creds.json',
  CLOUDSDK_CORE_PROJECT: 'proj',
  GIT_AUTHOR_NAME: 'Runner',
};
