export { startBaton, type BatonProcess, type BatonProcessOptions } from './baton-process.js';
export { freeLoopbackPort } from './free-port.js';
export { findNode22, nodeMajor, MINIMUM_NODE_MAJOR, type NodeBinary } from './node-22.js';
export { formatTable, summaryLine } from './report.js';
export { runSuite, type SuiteHandle, type SuiteRun, type SuiteRunOptions } from './run-suite.js';
export { isPassed, readScenarioResults, type ScenarioOutcome, type ScenarioResult } from './scenario-results.js';
export {
  loadScenarioSets,
  parseRequirementLists,
  scenarioSetsFromListOutput,
  scenarioSetsFromRequirements,
  tasksScenarios,
  pendingScenarios,
  type ScenarioSets,
} from './scored-scenarios.js';
export { findSuitePackage, SUITE_PACKAGE, type SuitePackage } from './suite-package.js';
export { ensureRunnerInstalled } from './runner-install.js';
