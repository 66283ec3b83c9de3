/**
 * `npx bolillo create-director` (issue 14 point 5): a production start (BOLILLO_SEED_DEMO=false) has no people;
 * whoever runs the server's machine creates the first director here, never over the network. The password is
 * read from stdin (--password-stdin) or generated, shown once, and must be changed at the first login.
 */
import { randomBytes } from 'node:crypto'
import { loadConfig, toolOptions } from '../config.ts'
import { createServices } from '../services.ts'

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}

export async function createDirectorCli(args: string[]): Promise<number> {
  const username = option(args, '--username')
  const name = option(args, '--name')
  if (!username || !/^[a-z0-9._-]{3,64}$/.test(username) || !name) {
    process.stderr.write(
      'uso: npx bolillo create-director --username <usuario> --name "<nombre>" [--password-stdin]\n  (usuario: 3 a 64 caracteres a-z 0-9 . _ -)\n',
    )
    return 2
  }
  const fromStdin = args.includes('--password-stdin')
  const password = fromStdin ? await readStdin() : randomBytes(12).toString('base64url')
  if (password.length < 8) {
    process.stderr.write('la contraseña debe tener al menos 8 caracteres\n')
    return 2
  }
  const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false', BOLILLO_LOG_LEVEL: 'warn' }, toolOptions())
  const services = await createServices(config)
  try {
    const u = await services.auth.createUser({
      username,
      displayName: name,
      role: 'director',
      password,
      halls: '*',
      mustChangePassword: !fromStdin,
    })
    process.stdout.write(`OK: director ${username} (${u.id}) creado para todas las salas\n`)
    if (!fromStdin)
      process.stdout.write(`Contraseña inicial (se muestra una sola vez; debe cambiarla al entrar): ${password}\n`)
    return 0
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  } finally {
    await services.close()
  }
}
