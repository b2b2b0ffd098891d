// The bundled fake-model conversations: imported (not read from disk) so dist/cli.js carries them.
import demo from '../../fixtures/scripts/demo.json' with { type: 'json' };
import editAndCommit from '../../fixtures/scripts/edit-and-commit.json' with { type: 'json' };
import hang from '../../fixtures/scripts/hang.json' with { type: 'json' };
import overloaded from '../../fixtures/scripts/overloaded.json' with { type: 'json' };
import plainAnswer from '../../fixtures/scripts/plain-answer.json' with { type: 'json' };
import quotaDaily from '../../fixtures/scripts/quota-daily.json' with { type: 'json' };
import rateLimitedThenOk from '../../fixtures/scripts/rate-limited-then-ok.json' with { type: 'json' };
import toolHeavy from '../../fixtures/scripts/tool-heavy.json' with { type: 'json' };
import transientThenOk from '../../fixtures/scripts/transient-then-ok.json' with { type: 'json' };
import twoTurn from '../../fixtures/scripts/two-turn.json' with { type: 'json' };

export const EMBEDDED_SCRIPTS: Record<string, unknown> = {
  demo,
  'edit-and-commit': editAndCommit,
  hang,
  overloaded,
  'plain-answer': plainAnswer,
  'quota-daily': quotaDaily,
  'rate-limited-then-ok': rateLimitedThenOk,
  'tool-heavy': toolHeavy,
  'transient-then-ok': transientThenOk,
  'two-turn': twoTurn,
};
