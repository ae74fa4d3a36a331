// Mocha's spec output, plus one plain closing line `tests: N passed, N failed` that CI reads
// (mocha's own "N passing" summary is not in that form). Above it, one line `tests: FAILED …` per
// failed test, so a CI log read from its tail names what failed without mocha's long report.
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_TEST_FAIL } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failed = [];
    runner.on(EVENT_TEST_FAIL, (test, error) => {
      const message = String(error?.message ?? error)
        .split('\n')[0]
        .slice(0, 200);
      failed.push(`tests: FAILED ${test.fullTitle()}: ${message}`);
    });
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      if (failed.length > 0) process.stdout.write(`\n${failed.join('\n')}\n`);
      process.stdout.write(`\ntests: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
