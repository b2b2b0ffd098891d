/**
 * Approvals for tests of code that takes one. An `Approval` can only be made by src/github/approval.ts, so a test
 * asks it, through a client that answers only the permission question: the approver has write access.
 */
import { approve, type Approval, type ApprovalVia } from '../../src/github/approval.js';
import type { GitHubClient } from '../../src/github/client.js';

const WRITER: GitHubClient = {
  rest: {
    repos: {
      getCollaboratorPermissionLevel: () =>
        Promise.resolve({ data: { role_name: 'write', permission: 'write' } }),
    },
  },
} as unknown as GitHubClient;

export async function testApproval(
  o: {
    approver?: string;
    at?: string;
    via?: ApprovalVia;
    number?: number;
    title?: string;
    body?: string;
    instruction?: string;
    isPullRequest?: boolean;
  } = {},
): Promise<Approval> {
  const made = await approve(
    WRITER,
    { owner: 'acme', repo: 'widgets' },
    {
      approver: o.approver ?? 'alice',
      at: o.at ?? '2026-12-05T00:00:00.000Z',
      via: o.via ?? 'label',
      ...(o.number !== undefined ? { number: o.number } : { number: 1 }),
      text: {
        title: o.title ?? '',
        body: o.body ?? '',
        instruction: o.instruction ?? '',
        isPullRequest: o.isPullRequest ?? false,
      },
    },
  );
  if (made.kind !== 'approved') throw new Error(made.why);
  return made.approval;
}
