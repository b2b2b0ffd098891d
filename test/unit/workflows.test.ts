import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';
import { z } from 'zod';

const step = z
  .object({ id: z.string().optional(), if: z.string().optional(), uses: z.string().optional() })
  .loose();
const workflow = z
  .object({
    permissions: z.unknown(),
    jobs: z.record(
      z.string(),
      z.object({ steps: z.array(step).optional(), permissions: z.unknown().optional() }).loose(),
    ),
  })
  .loose();

function load(path: string) {
  return workflow.parse(parse(readFileSync(path, 'utf8')));
}

const files = [
  ...readdirSync('.github/workflows').map((f) => `.github/workflows/${f}`),
  ...readdirSync('examples').map((f) => `examples/${f}`),
].filter((f) => f.endsWith('.yml'));

/** GitHub's own parser (@actions/workflow-parser): the errors GitHub would show for the file, none when valid. */
async function parserErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (!parsed.value) return errors;
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return [...errors, ...(template.errors ?? []).map((e) => e.Message)];
}

describe('workflows', () => {
  it.each(files)("%s: GitHub's workflow parser accepts it", async (file) => {
    expect(await parserErrors(file, readFileSync(file, 'utf8'))).toEqual([]);
  });

  it("GitHub's workflow parser refuses what GitHub would (the check can fail)", async () => {
    const broken = readFileSync('examples/github-app.yml', 'utf8').replace(
      'contents: read',
      'contents: writ',
    );
    expect((await parserErrors('broken.yml', broken)).join('\n')).toMatch(/writ/);
  });

  it.each(files)(
    '%s: every steps.<id> an `if:` refers to exists (a missing id silently disables the step)',
    (file) => {
      const wf = load(file);
      for (const job of Object.values(wf.jobs)) {
        const ids = new Set((job.steps ?? []).map((s) => s.id).filter(Boolean));
        for (const s of job.steps ?? []) {
          for (const m of (s.if ?? '').matchAll(/steps\.([A-Za-z0-9_-]+)\./g))
            expect(ids, `${file}: ${s.if}`).toContain(m[1]);
        }
      }
    },
  );

  it.each(files)('%s: sets top-level permissions', (file) => {
    expect(load(file).permissions).toBeDefined();
  });

  it('the check-dist workflow compares the whole dist/ folder, new files included', () => {
    const text = readFileSync('.github/workflows/check-dist.yml', 'utf8');
    expect(text).toContain('git add -N dist');
    expect(text).toContain('git status --porcelain -- dist');
  });
});
