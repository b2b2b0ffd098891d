/**
 * Values the action's inputs and the CLI's flags share, parsed the same way: `label` is how the caller names the
 * value in an error (`'mode'` for an input, `--mode` for a flag).
 */
import { z } from 'zod';
import { RUN_MODES, type RunMode } from './types.js';

export const runModeSchema = (label: string) =>
  z.enum(RUN_MODES as [RunMode, ...RunMode[]], {
    message: `${label} must be ${RUN_MODES.join(' or ')}`,
  });

export const timeoutMinutesSchema = (label: string) =>
  z
    .string()
    .transform(Number)
    .refine((n) => Number.isFinite(n) && n > 0 && n <= 6 * 60, {
      message: `${label} must be a number of minutes above 0 and at most 360 (e.g. 30)`,
    });

export const maxTokensSchema = (label: string) =>
  z
    .string()
    .regex(/^\d+$/, { message: `${label} must be a whole number of tokens (0 = no limit)` })
    .transform(Number);

/** `Name <email>`, as git and create-pull-request write it; empty: undefined (the caller's default). */
export const personSchema = (label: string) =>
  z.string().transform((s, ctx) => {
    if (s === '') return undefined;
    const m = /^([^<>\r\n]*[^<>\s])\s*<([^<>\s@]+@[^<>\s@]+)>$/.exec(s);
    if (m?.[1] && m[2]) return { name: m[1], email: m[2] };
    ctx.addIssue({ code: 'custom', message: `${label} must be in the form 'Name <email@example.com>'` });
    return z.NEVER;
  });

/**
 * A "must be" message with the value that was given, so a typo is seen at once ("'mode' must be interactive or
 * headless, not 'interactve'"). Only a short single line of plain characters is echoed; callers never pass a
 * secret's value.
 */
export function withGivenValue(message: string, value: string): string {
  const shown = value.trim();
  if (!/ must be /.test(message) || !shown || shown.length > 60 || /[^\x20-\x7e]/.test(shown)) return message;
  if (message.includes(`'${shown}'`)) return message;
  return `${message}, not '${shown}'`;
}
