/**
 * Issue 24 point 4: what a server without the demo refuses to start with. The demo trusts things that only make
 * sense on one machine with published passwords: labelled DEMO references, a beacon whose key sits in DATA_DIR, and
 * key files beside the database. A production server accepts none of them and says what to set instead.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { isDemoReference, isInside, type Config } from '../config.ts'
import { OPERATOR_KEY_FILE } from './keys.ts'
import { SEALING_KEY_FILE } from './sealing-key-file.ts'
import { INSTANT_PEPPER_FILE } from './instant-pepper.ts'
import { DEMO_BEACON_KEY_FILE } from './beacon-source.ts'

/** Every reason a production configuration may not start (empty: it may). Reads the file system, writes nothing. */
export function productionStartProblems(config: Config): string[] {
  if (!config.production) return []
  const problems: string[] = []
  const refs: Array<[string, string | null | undefined]> = [
    ['BOLILLO_LOTTERY_RNG_AUTHORISATION', config.lotteryRngAuthorisation],
    ['BOLILLO_LOTTO_LICENCE', config.lottoLicence?.ref],
    ['BOLILLO_LOTTERY_LICENCE', config.lotteryLicence?.ref],
    ['BOLILLO_INSTANT_GENERATOR_CERT', config.instantGeneratorCertification?.ref],
  ]
  for (const [name, ref] of refs)
    if (isDemoReference(ref))
      problems.push(`${name} is a demo reference ("${ref}"): a server without the demo accepts only the real one`)
  if (config.demoBeacon)
    problems.push(
      'BOLILLO_DEMO_BEACON: the demo beacon serves only the demo; a server without the demo draws by the public beacon (BOLILLO_BEACON_RELAYS or typed signatures)',
    )
  if (!config.keyDir)
    problems.push(
      `BOLILLO_KEY_DIR is not set: a server without the demo keeps its keys outside DATA_DIR (${config.dataDir})`,
    )
  else if (isInside(config.keyDir, config.dataDir))
    problems.push(
      `BOLILLO_KEY_DIR=${config.keyDir} lies inside DATA_DIR (${config.dataDir}): set it to a directory outside DATA_DIR`,
    )
  const inData = join(config.dataDir, 'keys')
  for (const name of [OPERATOR_KEY_FILE, SEALING_KEY_FILE, INSTANT_PEPPER_FILE, DEMO_BEACON_KEY_FILE]) {
    const file = join(inData, name)
    if (existsSync(file)) {
      problems.push(
        `key file ${file} is inside DATA_DIR: whoever copies DATA_DIR would hold it. A server without the demo reads its keys only from BOLILLO_KEY_DIR: move the operator key, sealing key and pepper there (the demo beacon key is the demo's: delete it) and remove them from DATA_DIR`,
      )
    }
  }
  return problems
}

/** @throws Error listing every problem at once, like loadConfig. */
export function assertProductionStart(config: Config): void {
  const problems = productionStartProblems(config)
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`)
}
