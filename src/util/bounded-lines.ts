/**
 * Splitting text that arrives in pieces (a followed file, a child's stdout) into lines of bounded length. A line
 * longer than the bound is dropped whole and counted — what is held of it is let go, and the rest of it, up to its
 * newline, is never taken for a line of its own — so memory stays bounded whatever the writer sends.
 */
export class BoundedLines {
  /** Lines dropped for their length. */
  dropped = 0;
  /** The pieces of the line being completed: joined once, at its newline (no copying per piece). */
  private held: string[] = [];
  private heldChars = 0;
  /** Inside a line past the bound: everything up to its newline goes. */
  private skipping = false;

  constructor(private readonly maxChars: number) {}

  /** The lines `chunk` completes (after what was held), without their newlines. */
  push(chunk: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      if (this.skipping || this.heldChars + (nl - start) > this.maxChars) this.dropped++;
      else
        lines.push(
          this.held.length > 0 ? this.held.join('') + chunk.slice(start, nl) : chunk.slice(start, nl),
        );
      this.reset();
      start = nl + 1;
    }
    if (this.skipping || start === chunk.length) return lines;
    const rest = chunk.slice(start);
    if (this.heldChars + rest.length > this.maxChars) {
      this.reset();
      this.skipping = true;
    } else {
      this.held.push(rest);
      this.heldChars += rest.length;
    }
    return lines;
  }

  /** The stream ended: its last line when it had no newline (undefined when none, or when it was too long). */
  end(): string | undefined {
    const { held, skipping } = this;
    this.reset();
    if (skipping) this.dropped++;
    return skipping || held.length === 0 ? undefined : held.join('');
  }

  /** Starts over (the followed file was replaced); the count stays. */
  reset(): void {
    this.held = [];
    this.heldChars = 0;
    this.skipping = false;
  }
}
