import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { runtime } from '../../server/src/shared/runtime.ts'
import { checkDemoHall, startServerProcess } from '../helpers/demo-hall.ts'

/**
 * README's promise: `npm start` on a fresh data directory brings up a working demo hall, with authentication on
 * (the default), one staff account per role and enrolled demo devices.
 */
describe('npm start: the demo hall', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-demo-start-'))
  let child: ChildProcess | null = null
  afterAll(() => {
    child?.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('serves a demo game that staff can run and strangers cannot touch', async () => {
    // The CLI runs on the runtime running this suite (Node, or Bun under `npm run test:bun`).
    const started = startServerProcess(process.execPath, [join(process.cwd(), 'bin', 'bolillo.mjs'), 'start'], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BOLILLO_LOG_LEVEL: 'error',
      BOLILLO_AUTH: '',
      BOLILLO_SEED_DEMO: '',
    })
    child = started.child
    await checkDemoHall(await started.url, dataDir, { engine: 'sqlite', runtime })
  }, 120_000)
})
