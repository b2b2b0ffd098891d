import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  controlLineSchema,
  parseLine,
  proxyConfigSchema,
  startModelProxy
} from "./chunks/chunk-F6BLPV2K.js";
import {
  getErrorMessage,
  oneLine
} from "./chunks/chunk-UTG5WWAN.js";
import "./chunks/chunk-JK6K75XX.js";

// src/proxy/main.ts
import { createInterface } from "node:readline";
var lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
var proxy;
var token = "";
var stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await proxy?.close();
  process.exit(0);
}
async function configure(line) {
  let config;
  try {
    config = parseLine(proxyConfigSchema, line, "model proxy config");
  } catch (e) {
    process.stderr.write(`${oneLine(getErrorMessage(e))}
`);
    process.exit(2);
  }
  const credential = config.credential.kind === "api-key" ? config.credential : { kind: "bearer", token: () => Promise.resolve(token) };
  if (config.credential.kind === "bearer") token = config.credential.token;
  try {
    proxy = await startModelProxy({
      upstream: config.upstream,
      placeholder: config.placeholder,
      credential,
      api: config.api,
      onRefused: (call) => process.stdout.write(`${JSON.stringify({ refused: call })}
`),
      onHealth: (note) => process.stdout.write(`${JSON.stringify({ health: note })}
`),
      onUsage: (usage) => process.stdout.write(`${JSON.stringify({ usage })}
`),
      ...config.models ? { models: config.models } : {},
      ...config.tokenLimit ? { tokenLimit: config.tokenLimit } : {},
      ...config.metadata ? { metadata: config.metadata } : {},
      ...config.silenceMs ? { silenceMs: config.silenceMs } : {},
      log: (l) => process.stderr.write(`${l}
`)
    });
  } catch (e) {
    process.stderr.write(`${oneLine(getErrorMessage(e))}
`);
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify({ url: proxy.url })}
`);
}
var configured;
lines.on("line", (line) => {
  if (!configured) {
    configured = configure(line);
    return;
  }
  try {
    const control = parseLine(controlLineSchema, line, "control line");
    if ("fence" in control) void configured.then(() => proxy?.fence());
    else token = control.token;
  } catch (e) {
    process.stderr.write(`${oneLine(getErrorMessage(e))}; ignored
`);
  }
});
lines.on("close", () => {
  if (!configured) {
    process.stderr.write("model proxy config: stdin ended before the config line\n");
    process.exit(2);
  }
  void configured.then(stop);
});
process.on("SIGTERM", () => void stop());
