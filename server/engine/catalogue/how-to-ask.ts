/**
 * How a question state is written, for the checks' fixes: the readable shape the docs teach and
 * XState's editor tooling sees whole (authoring/question-states.ts); the ask… helpers write the same.
 */
export const HOW_TO_ASK =
  "Declare the question in toolSetup({ questions }) and write its state as { tags: ['baton.input'], meta: { 'baton.input': { key: '<key>' } }, on: { 'answer.<key>.accept': … } }.";
