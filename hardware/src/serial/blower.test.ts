import { afterEach, describe, expect, it } from 'vitest'
import type { BallRead, ConnectionChange, DeviceFault } from '../ports.ts'
import { createBlowerSimulator, type BlowerSimulator } from '../simulators/blower-sim.ts'
import { createSimBinding } from '../simulators/sim-binding.ts'
import { createSerialBlower, type SerialBlower } from './blower.ts'

/** The real driver over the in-memory simulator binding (the pty suite runs the same driver on a real tty). */
describe('serial blower driver', () => {
  let driver: SerialBlower | undefined
  let sim: BlowerSimulator | undefined
  afterEach(async () => {
    await driver?.close()
    sim?.shutdown()
  })

  async function setup(seed = 'unit', heartbeatTimeoutMs = 2000) {
    sim = createBlowerSimulator({ seed, heartbeatMs: 50, releaseDelayMs: 5, deviceId: 'BLW-T1', sealCode: 'AJ-T1' })
    const binding = createSimBinding()
    binding.attach('sim://t1', sim)
    sim.power()
    driver = createSerialBlower({ path: 'sim://t1', binding, heartbeatTimeoutMs, commandTimeoutMs: 2000, reopenMs: 0 })
    const balls: BallRead[] = []
    const faults: DeviceFault[] = []
    const conns: ConnectionChange[] = []
    driver.onBall((b) => balls.push(b))
    driver.onFault((f) => faults.push(f))
    driver.onConnection((c) => conns.push(c))
    const id = await driver.open()
    return { id, balls, faults, conns, sim, driver }
  }
  const until = async (cond: () => boolean, ms = 2000) => {
    const end = Date.now() + ms
    while (!cond()) {
      if (Date.now() > end) throw new Error('condition not met in time')
      await new Promise((r) => setTimeout(r, 5))
    }
  }

  it('identifies the device and reads released balls in the simulator order', async () => {
    const { id, balls, sim, driver } = await setup()
    expect(id).toMatchObject({ deviceId: 'BLW-T1', sealCode: 'AJ-T1', ballCount: 90 })
    expect(driver.connected).toBe(true)
    await driver.start()
    for (let i = 0; i < 5; i++) {
      await driver.release()
      await until(() => balls.length === i + 1)
    }
    expect(balls.map((b) => b.ball)).toEqual(sim.released)
    expect(new Set(balls.map((b) => b.ball)).size).toBe(5)
    expect(balls.every((b) => b.deviceId === 'BLW-T1' && b.confidence >= 95)).toBe(true)
  })

  it('replays the same mix for the same seed', async () => {
    const a = createBlowerSimulator({ seed: 's1', heartbeatMs: 0 })
    const b = createBlowerSimulator({ seed: 's1', heartbeatMs: 0 })
    const c = createBlowerSimulator({ seed: 's2', heartbeatMs: 0 })
    const drawAll = async (s: BlowerSimulator) => {
      const out: number[] = []
      s.onSend(() => undefined)
      const { encodeHostCommand } = await import('../protocols/blower-protocol.ts')
      s.receive(encodeHostCommand({ type: 'mix', seq: 1 }))
      for (let i = 0; i < 10; i++) s.receive(encodeHostCommand({ type: 'release', seq: i + 2 }))
      await until(() => s.released.length === 10)
      out.push(...s.released)
      s.shutdown()
      return out
    }
    const [ra, rb, rc] = [await drawAll(a), await drawAll(b), await drawAll(c)]
    expect(ra).toEqual(rb)
    expect(ra).not.toEqual(rc)
    expect(ra).toHaveLength(10)
  })

  it('reports a jam as a fault and refuses to release while jammed', async () => {
    const { faults, sim, driver } = await setup()
    await driver.start()
    sim.jam()
    await until(() => faults.length === 1)
    expect(faults[0]).toMatchObject({ deviceId: 'BLW-T1', code: 'JAM' })
    await expect(driver.release()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' })
  })

  it('surfaces silence as a disconnection and commands as DEVICE_UNAVAILABLE, then comes back', async () => {
    const { conns, sim, driver } = await setup('unit', 300)
    sim.disconnect()
    await until(() => conns.some((c) => !c.connected))
    expect(conns.at(-1)).toMatchObject({ connected: false, reason: 'heartbeat-timeout' })
    expect(driver.connected).toBe(false)
    await expect(driver.release()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' })
    sim.reconnect()
    await until(() => driver.connected)
    expect(conns.at(-1)).toMatchObject({ connected: true, reason: 'hello' })
  })

  it('passes on a duplicate read and a ball outside the set as the reader said them', async () => {
    const { balls, sim, driver } = await setup()
    await driver.start()
    await driver.release()
    await until(() => balls.length === 1)
    sim.readNextTwice()
    await driver.release()
    await until(() => balls.length === 3)
    expect(balls[2].ball).toBe(balls[1].ball)
    expect(balls[2].seq).not.toBe(balls[1].seq)
    sim.outsideNext()
    await driver.release()
    await until(() => balls.length === 4)
    expect(balls[3].ball).toBe(91)
  })
})

/** A real blower on a real port, only when opted in: BOLILLO_TEST_SERIAL=/dev/ttyUSB0 (STYLE.md §10). */
const realPort = process.env.BOLILLO_TEST_SERIAL
describe.skipIf(!realPort)(`real blower on ${realPort ?? 'BOLILLO_TEST_SERIAL (not set: skipped)'}`, () => {
  it('identifies itself with a device id and a seal code', async () => {
    const d = createSerialBlower({
      path: realPort!,
      baudRate: Number(process.env.BOLILLO_TEST_SERIAL_BAUD ?? 9600),
      reopenMs: 0,
    })
    try {
      const id = await d.open()
      expect(id.deviceId).toMatch(/\S/)
      expect(id.sealCode).toMatch(/\S/)
    } finally {
      await d.close()
    }
  })
})
