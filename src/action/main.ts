import * as core from '@actions/core';
import { getErrorMessage } from '../util/errors.js';

/** The action body; the only place that calls core.setFailed. */
export async function run(): Promise<void> {
  try {
    core.info('gemini-run: not wired yet');
  } catch (error) {
    core.setFailed(getErrorMessage(error));
  }
}
