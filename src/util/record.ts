/**
 * A run as one record that each phase extends (the action's pipeline, the engine): a phase adds fields of its own
 * and never overwrites one a phase before it set, so a name means one thing for the whole run. `extend` is where
 * that is checked, by the compiler: a field already in the record is a type error at the phase that adds it again.
 */

/** The fields of `A` that `R` already has, each typed `never`: no value can be given for them. */
export type NoneOf<R, A> = { [K in keyof A & keyof R]: never };

/** The record with a phase's own fields added. */
export function extend<R extends object, A extends object>(record: R, added: A & NoneOf<R, A>): R & A {
  return { ...record, ...added };
}
