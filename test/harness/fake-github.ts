// The fake GitHub lives in src/fake/ because `gemini-run demo` ships it in dist/cli.js.
export * from '../../src/fake/github-api.js';
