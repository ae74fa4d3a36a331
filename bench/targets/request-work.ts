/**
 * Each target's own work per request, timed where it runs, under the bench's load: for Baton, one
 * engine round (`FlowEngine#run`, which holds every unavoidable step of the limit); for the floor,
 * its JSON work (parse the request, look the reply up, write its text). The micro-benchmarks time
 * the same code in a hot loop (bench/micro/flow-round-steps.ts), so the report can say how much
 * slower the same code runs between HTTP requests than on its own. The SDK is not timed.
 */
import { SpanTimer, type SpanTotals } from './span-timer.js';

export const requestWork = new SpanTimer();

export function requestWorkTotals(): SpanTotals {
  return requestWork.totals();
}
