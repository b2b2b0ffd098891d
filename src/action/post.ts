import * as core from '@actions/core';
import { getErrorMessage } from '../util/errors.js';

/** Post step: cleanup that always runs; trouble is only a warning. */
async function post(): Promise<void> {
  try {
    core.info('gemini-run post: nothing to clean');
  } catch (error) {
    core.warning(getErrorMessage(error));
  }
}

void post();
