import { mkdirSync, writeFileSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints one plain closing line, "N passed, N failed, N skipped", that any CI can read, and writes each file's
 * duration, slowest first, and names every test that passed only on a retry (BOLILLO_TEST_RETRY), to test-output/test-durations.json: where the suite's minutes go (issue 25 point 3).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    const flaky: string[] = []
    for (const mod of testModules) {
      let moduleFailures = 0
      for (const test of mod.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') {
          passed++
          if (test.diagnostic()?.flaky)
            flaky.push(`${test.module.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName}`)
        } else if (state === 'failed') {
          failed++
          moduleFailures++
        } else skipped++
      }
      // A file that failed to load has no failed test of its own: count it, so the line never hides it.
      if (moduleFailures === 0 && mod.state() === 'failed') failed++
    }
    const durations = testModules
      .map((m) => ({ file: m.moduleId.replace(process.cwd() + '/', ''), ms: Math.round(m.diagnostic().duration) }))
      .sort((a, b) => b.ms - a.ms)
    mkdirSync('test-output', { recursive: true })
    writeFileSync('test-output/test-durations.json', JSON.stringify(durations, null, 1) + '\n')
    for (const name of flaky) process.stdout.write(`\nFLAKY (passed only on a retry): ${name}`)
    const flakyNote = flaky.length > 0 ? `, ${flaky.length} flaky` : ''
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped${flakyNote}\n`)
  }
}
