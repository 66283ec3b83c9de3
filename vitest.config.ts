import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'printer/**/*.test.ts',
      'hardware/**/*.test.ts',
      'kiosk/**/*.test.ts',
      'display/**/*.test.ts',
      'web/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Issue 25 point 3: a worker keeps the modules it has loaded from one test file to the next instead of loading the
    // whole server again for each file (vitest's default isolation): ten small end-to-end files ran in 87 s instead of
    // 174 s back to back on this 2-core machine. Every file still starts its own servers, databases and browsers.
    isolate: false,
    // Issue 25 point 3: vitest's default (one worker fewer than the cores) runs this 2-core machine's suite in one
    // file at a time, while most files wait on sockets, Chromium and fsync rather than the CPU: at least two (three made the kiosk printer-offline tests time out).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
})
