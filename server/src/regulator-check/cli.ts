/** `npx bolillo regulator-check DIR [--key PEM] [--json]`: the independent checker of an exported feed (issue 28). */
import { readFileSync } from 'node:fs'
import { checkExport, formatReport } from './check.ts'

export function runRegulatorCheck(args: string[]): number {
  const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--key')
  if (!dir) {
    process.stderr.write('uso / usage: npx bolillo regulator-check DIR [--key operator-public-key.pem] [--json]\n')
    return 2
  }
  const keyFile = args.includes('--key') ? args[args.indexOf('--key') + 1] : undefined
  const report = checkExport(dir, { publicKeyPem: keyFile ? readFileSync(keyFile, 'utf8') : undefined })
  process.stdout.write(args.includes('--json') ? JSON.stringify(report) + '\n' : formatReport(report))
  return report.ok ? 0 : 1
}
