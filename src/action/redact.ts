/**
 * Replaces every known secret value in text we publish (PR text, comments, summaries, artifacts). Masking in
 * the log is the runner's job (core.setSecret); this covers the places the runner does not see.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (!secret || secret.length < 4) return;
    this.secrets.add(secret);
    this.secrets.add(Buffer.from(secret, 'utf8').toString('base64'));
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
    return out;
  }
}
