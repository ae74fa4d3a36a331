// Mocha's spec output, plus one plain closing line `tests: N passed, N failed` that CI reads
// (mocha's own "N passing" summary is not in that form).
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`\ntests: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
