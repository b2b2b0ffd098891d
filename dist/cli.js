#!/usr/bin/env node
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat */
/******/ 
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = new URL('.', import.meta.url).pathname.slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  i: () => (/* binding */ main)
});

;// CONCATENATED MODULE: ./src/util/errors.ts
/**
 * An error caused by the user's input or environment. Its message is one line that says what is wrong and
 * what to do; entry points print it without a stack trace.
 */
class UserError extends (/* unused pure expression or super */ null && (Error)) {
    name = 'UserError';
}
/** The message of anything thrown, including non-Error throws (a thrown string must not leave a step green). */
function getErrorMessage(error) {
    if (error instanceof Error)
        return error.message;
    if (typeof error === 'string')
        return error;
    try {
        return JSON.stringify(error) ?? String(error);
    }
    catch {
        return String(error);
    }
}
/** First line only: user-facing errors are single lines. */
function oneLine(message) {
    const line = message.split(/\r?\n/).find((l) => l.trim() !== '') ?? message;
    return line.trim();
}

;// CONCATENATED MODULE: ./src/cli/main.ts

async function main(argv) {
    const [command] = argv;
    if (!command || command === '--help' || command === 'help') {
        process.stdout.write('usage: gemini-run <command>\n');
        return 0;
    }
    process.stderr.write(`gemini-run: unknown command '${command}'. Run 'gemini-run --help' for the list.\n`);
    return 2;
}
main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    process.stderr.write(`gemini-run: ${getErrorMessage(error)}\n`);
    process.exit(1);
});

var __webpack_exports__main = __webpack_exports__.i;
export { __webpack_exports__main as main };
