/** Reactions on an issue or a comment (the action's "eyes" on the trigger). */
import { asRecord, fail, optString, type Reply } from './http.js';
import { commentAt, issueAt, REPO, route, type Ctx, type Route } from './route.js';
import { nodeId, userJson } from './shapes.js';

const ALLOWED = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];

function react(c: Ctx, target: string): Reply {
  const content = optString(asRecord(c.body), 'content');
  if (!content || !ALLOWED.includes(content))
    fail(422, 'Validation Failed', [{ resource: 'Reaction', field: 'content', code: 'invalid' }]);
  const id = c.state.id();
  c.state.reactions.push({ content, target, user: c.state.tokenUser.login });
  return {
    status: 201,
    body: {
      id,
      node_id: nodeId('Reaction', id),
      content,
      user: userJson(c.state, c.state.tokenUser),
      created_at: c.state.now(),
    },
  };
}

export const reactionRoutes: Route[] = [
  route('POST', `${REPO}/issues/comments/:id/reactions`, (c) => react(c, `comment:${commentAt(c).id}`)),
  route('POST', `${REPO}/issues/:number/reactions`, (c) => react(c, `issue:${issueAt(c).number}`)),
];
