import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  coreLogger,
  saveState
} from "./chunk-5DX56EEC.js";
import {
  artifactTranscriptStore,
  earlyFailure,
  failedPartOf,
  failureLine,
  failureSummary,
  getInputs,
  localTranscriptStore,
  maskSecret,
  readActionContext,
  runAction,
  setOutputs
} from "./chunk-TMIVPONE.js";
import {
  FAILED_PARTS,
  guardLines,
  onSignalTeardown,
  redactSecrets
} from "./chunk-4XTRUCB4.js";
import "./chunk-52ZLQQ2N.js";
import "./chunk-F6BLPV2K.js";
import {
  UserError,
  getErrorMessage
} from "./chunk-UTG5WWAN.js";
import {
  debug,
  info,
  setFailed,
  summary,
  warning
} from "./chunk-ZFM4SP3J.js";
import "./chunk-JK6K75XX.js";

// src/action/main.ts
var io = {
  log: coreLogger,
  mask: maskSecret,
  saveState,
  writeJobSummary: async (markdown) => {
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await summary.addRaw(markdown, true).write();
  },
  transcriptStore: ({ token, repo }) => process.env.GEMINI_RUN_TRANSCRIPT_STORE ? localTranscriptStore(process.env.GEMINI_RUN_TRANSCRIPT_STORE, repo) : artifactTranscriptStore({ token, repo, env: process.env }),
  env: process.env
};
async function summaryOfEarlyEnd(status, message, failedPart) {
  const env = process.env;
  const logUrl = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : "";
  const facts = earlyFailure(status, redactSecrets(message), {
    logUrl,
    userError: status === "misconfigured",
    ...failedPart ? { failedPart } : {}
  });
  await io.writeJobSummary(failureSummary(facts)).catch((e) => warning(`Could not write the job summary: ${getErrorMessage(e)}`));
}
async function run() {
  onSignalTeardown(
    (signal, teardowns) => info(
      `${signal}: the job was cancelled; removing what this run changed on the runner (${teardowns}).`
    )
  );
  try {
    const { inputs, problem } = getInputs();
    const ctx = await readActionContext();
    const { outputs, failure } = await runAction({ inputs, ctx, io, ...problem ? { problem } : {} });
    setOutputs(outputs);
    info(`status: ${outputs.status}${outputs["pr-url"] ? ` — ${outputs["pr-url"]}` : ""}`);
    if (failure) setFailed(guardLines(failure));
  } catch (error) {
    const status = error instanceof UserError ? "misconfigured" : "crashed";
    setOutputs({ status });
    const failedPart = status === "crashed" ? failedPartOf(error, "gemini-run") : void 0;
    const told = failureLine(error);
    const message = failedPart ? `${FAILED_PARTS[failedPart].names} failed: ${told}` : told;
    if (status === "crashed" && error instanceof Error && error.stack) debug(guardLines(error.stack));
    await summaryOfEarlyEnd(status, told, failedPart);
    setFailed(guardLines(message));
  }
}
export {
  run
};
