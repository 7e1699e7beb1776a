// Prints one plain closing line, `Tests: N passed, N failed, N skipped`, that any CI log reader understands.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    console.log(`Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped`);
  }
}
module.exports = SummaryReporter;
