import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Files that measure the latency of the server they run in: a fresh worker each, so that the heap other files left in
 * a shared worker (see `isolate` below) cannot add its garbage-collection pauses to their figures.
 */
const ISOLATED = ['test/e2e/socket-flood.test.ts']

const ALL = [
  'server/**/*.test.ts',
  'printer/**/*.test.ts',
  'hardware/**/*.test.ts',
  'kiosk/**/*.test.ts',
  'display/**/*.test.ts',
  'web/**/*.test.ts',
  'test/**/*.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Issue 25 point 3: vitest's default (one worker fewer than the cores) runs this 2-core machine's suite in one
    // file at a time, while most files wait on sockets, Chromium and fsync rather than the CPU: at least two (three made the kiosk printer-offline tests time out).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // BOLILLO_TEST_RETRY=n (.ci/run sets 1): a failed test runs again up to n times before it fails the run. A test that
    // fails every time still fails; one that passes only on a retry is named by the summary line as flaky, to be fixed
    // rather than forgotten (the run of 27 November failed on a random security code that happened to hold "0005").
    retry: Number(process.env.BOLILLO_TEST_RETRY ?? 0),
    // The PostgreSQL passes drop the databases their files made (no-op on SQLite).
    globalSetup: ['./test/helpers/postgres-cleanup.ts'],
    projects: [
      // Issue 25 point 3: a worker keeps the modules it has loaded from one test file to the next instead of loading
      // the whole server again for each file (vitest's default isolation): ten small end-to-end files ran in 87 s
      // instead of 174 s back to back on this 2-core machine. Every file still starts its own servers, databases and
      // browsers.
      {
        extends: true,
        test: { name: 'shared', include: ALL, exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'isolated', isolate: true, include: ISOLATED } },
    ],
  },
})
