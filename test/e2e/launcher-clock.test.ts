import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../helpers/server.ts'

/**
 * Issue 17: the launcher names the hall's time zone with its offset at the server's own time (the injected clock),
 * never the machine's: a Spanish hall (Europe/Madrid) is UTC+01:00 in winter and UTC+02:00 in summer, so on any real
 * date one of the two answers below would be wrong if the page read the machine's date.
 */
describe("the launcher shows the hall's offset at the server's clock", () => {
  let t = Date.parse('2026-01-15T10:00:00.000Z')
  let server: Awaited<ReturnType<typeof startTestServer>>

  beforeAll(async () => {
    server = await startTestServer({}, { clock: { now: () => new Date(t) } })
    await server.services.bingo.createHall({ name: 'Sala Altamira', profileId: 'ES-CB-2010', playingPositions: 200 })
  })
  afterAll(async () => server?.cleanup())

  const hallLine = async () => {
    const html = await (await fetch(`${server.url}/`)).text()
    return /data-testid="launch-hall">(.*?)<\/p>/.exec(html)?.[1] ?? ''
  }

  it('a Spanish hall reads UTC+01:00 on a winter clock and UTC+02:00 on a summer one', async () => {
    expect(await hallLine()).toContain('Madrid, UTC+01:00')
    t = Date.parse('2026-07-15T10:00:00.000Z')
    expect(await hallLine()).toContain('Madrid, UTC+02:00')
  })
})
