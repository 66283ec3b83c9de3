// `npm test`'s first step: the type check and the lint (ESLint, Prettier) side by side rather than one after the
// other (issue 25 point 3: they are single-threaded, so on two cores they finish together). Fails if either fails,
// with each one's output as it came.
import { spawn } from 'node:child_process'

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('close', (code) => resolve({ script, code, out }))
  })

const results = await Promise.all([run('typecheck'), run('lint')])
for (const r of results) {
  if (r.out.trim()) process.stdout.write(`--- npm run ${r.script}\n${r.out}`)
  process.stdout.write(`npm run ${r.script}: ${r.code === 0 ? 'ok' : `failed (${r.code})`}\n`)
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1)
