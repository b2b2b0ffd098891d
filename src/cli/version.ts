/** This release of gemini-run: package.json's version (test/unit/release.test.ts holds them together). */
export const VERSION = '1.0.0';
