import type { Reporter, TestModule } from 'vitest/node'

/** Prints one plain closing line, "N passed, N failed, N skipped", that any CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const mod of testModules) {
      let moduleFailures = 0
      for (const test of mod.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') {
          failed++
          moduleFailures++
        } else skipped++
      }
      // A file that failed to load has no failed test of its own: count it, so the line never hides it.
      if (moduleFailures === 0 && mod.state() === 'failed') failed++
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
