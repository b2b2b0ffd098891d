import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);

// src/action/load-guard.ts
function hideEventPath() {
  const eventPath = process.env.GITHUB_EVENT_PATH;
  delete process.env.GITHUB_EVENT_PATH;
  return () => {
    if (eventPath !== void 0) process.env.GITHUB_EVENT_PATH = eventPath;
  };
}

export {
  hideEventPath
};
