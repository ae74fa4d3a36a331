/**
 * The report's table of every flow's unavoidable steps, round by round, and the per-request figure
 * the limit L uses (bench/micro/flow-round-steps.ts measures them).
 */
import type { MicroResult } from '../micro/engine-steps.js';
import type { RoundTiming } from '../micro/flow-round-steps.js';
import { n, table } from './markdown-table.js';

function roundLabel(round: RoundTiming): string {
  const answers = round.answered.length ? `answers ${round.answered.join(' + ')}` : 'the call';
  const then = round.asked.length ? `asks ${round.asked.join(' + ')}` : 'the result';
  return `${round.number} (${round.kind}): ${answers} → ${then}`;
}

export function flowStepsSection(micro: MicroResult | undefined): string {
  const flows = micro?.flows;
  if (!flows || flows.length === 0) return '';
  const batches = flows[0]?.rounds[0]?.steps[0]?.batches ?? 0;
  const rounds = flows.flatMap((flow) =>
    flow.rounds.map((round) => [
      flow.flow,
      roundLabel(round),
      round.steps.map((s) => `${s.step} ${n(s.medianMicros, 1)}`).join(', '),
      n(round.sum, 1),
    ]),
  );
  const perFlow = flows.map((flow) => [
    flow.flow,
    flow.rounds.map((r) => n(r.sum, 1)).join(' + '),
    n(flow.sum, 1),
    String(flow.requests),
    `**${n(flow.perRequest, 1)}**`,
  ]);
  return `### The unavoidable steps, flow by flow

A request of the bench is an average request of its flow, and a flow's rounds do not do the same
work. The first round opens nothing: it builds the initial state (\`createActor\` from the
arguments, then \`start\`, which computes the initial snapshot; for the parallel machine that enters
both regions), then persists, seals and asks. A middle round opens, parses, restores and starts the
actor, maps and sends the answers, then persists, seals and asks. The last round answers and ends in a final
state, so it seals nothing. The parallel flow's middle round takes two answers (two sends and two
answer mappings) on a machine in parallel regions, whose restore and start also cost more. Each flow
is played through a real \`FlowEngine\` (\`bench/micro/flow-round-walk.ts\`) and each step of each round
timed on its own on that round's real state and answers (\`bench/micro/round-steps.ts\`): median CPU
µs per operation over ${batches} batches.

${table(['flow', 'request', 'steps (µs each)', 'sum'], rounds)}

The limit counts each flow's steps per request: the sum over its rounds divided by its requests.

${table(['flow', 'rounds (µs)', 'sum', 'requests', 'steps per request'], perFlow)}`;
}
