// The fake Gemini API lives in src/fake/ because `gemini-run demo` and `gemini-run probe` ship it in dist/cli.js.
export * from '../../src/fake/gemini-api.js';
