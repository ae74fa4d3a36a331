/**
 * Type-level test of the test kit's answers: with a tool from `toolSetup` (`teamTool`: `team` is
 * an enum field, `details` a form of two fields), `runFlow`'s answers, `accept({…})` and the
 * `answers` option of `planPaths`/`walkPaths`/`describePaths` are typed from each question's
 * schema. Each `@ts-expect-error` marks a mistake that must not compile (typed-answers.test.ts
 * checks each fails for its own line); the rest must compile. Nothing here runs.
 */
import { accept, decline, describePaths, planPaths, runFlow, walkPaths } from '../../server/testing/index.js';
import { teamTool, untypedTeamTool } from './fixtures.js';

export async function answerTypos() {
  const tool = teamTool();
  // @ts-expect-error accept() with a value outside the question's enum
  await runFlow(tool, {}, { team: accept({ team: 'platfrom' }) });
  // @ts-expect-error accept() with a misspelled field
  await runFlow(tool, {}, { team: accept({ team: 'platform' }), details: accept({ laptop: true, nte: '' }) });
  // @ts-expect-error a misspelled question key in runFlow's answers
  await runFlow(tool, {}, { taem: accept({ team: 'platform' }) });
  // @ts-expect-error the answers option with a value outside the enum
  describePaths(tool, { answers: { team: ['platfrom'] } });
  // @ts-expect-error the answers option with a misspelled field
  await walkPaths(tool, { answers: { details: [{ laptop: true, nte: '' }] } });
  // @ts-expect-error the answers option with a bare value for a form of two fields
  planPaths(tool, { answers: { details: [true] } });
}

/** What the schemas allow compiles: every shape the kit takes. */
export async function rightAnswers() {
  const tool = teamTool();
  await runFlow(tool, {}, { team: [accept({ team: 'design' }), decline()], details: accept({ laptop: false }) });
  await runFlow(tool, {}, { team: { action: 'accept', content: { team: 'platform' } } });
  await runFlow(tool, {}, () => ({ action: 'decline' }));
  describePaths(tool, {
    answers: { team: ['platform', { team: 'design' }, decline()], details: [accept({ laptop: true, note: 'x' })] },
  });
}

/** A plain `defineTool` knows no questions: the kit takes any answer for it, as before. */
export async function untypedAnswers() {
  const tool = untypedTeamTool();
  await runFlow(tool, {}, { team: accept({ team: 'platfrom' }), anything: 'goes' });
  planPaths(tool, { answers: { team: ['platfrom'], details: [true] } });
}
