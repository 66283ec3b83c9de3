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
    // Issue 25 point 3: vitest's default (one worker fewer than the cores) runs this 2-core machine's suite in one
    // file at a time, while most files wait on sockets, Chromium and fsync rather than the CPU: at least two (three made the kiosk printer-offline tests time out).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
})
