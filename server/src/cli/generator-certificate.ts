/**
 * INS-3 / RNG-27: the laboratory's side of the generator certificate. `instant certifier-key` prints the raw Ed25519
 * public key of the certifier's private key (what the operator records in the registry); `instant sign-certificate`
 * signs the canonical statement of a build and writes the certificate document the operator configures
 * (BOLILLO_INSTANT_GENERATOR_CERT). The private key is a PEM file (`openssl genpkey -algorithm ed25519`) that never
 * leaves the laboratory.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import {
  canonicalStatement,
  parseSignedCertificate,
  type GeneratorCertificateStatement,
  type SignedGeneratorCertificate,
} from '../instant/generator-certificate.ts'

export const certificateUsage = `  npx bolillo instant certifier-key --key <clave-ed25519.pem>
                                            (laboratorio) imprime la clave pública (64 hex) que el operador
                                            registra en POST /api/instant/generator-certifiers
  npx bolillo instant sign-certificate --key <clave.pem> --certifier <ref. AJ del certificador>
                 --certificate <ref. del certificado> --build <sha256> --issued <AAAA-MM-DD>
                 [--valid-until <AAAA-MM-DD>] [--out <certificado.json>]
                                            (laboratorio) firma el certificado del generador de raspaditas
                                            (INS-3): el operador lo configura en BOLILLO_INSTANT_GENERATOR_CERT
`

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

function privateKeyOf(args: string[]): KeyObject {
  const path = option(args, '--key')
  if (!path) throw new Error('--key <clave-ed25519.pem> is required')
  const key = createPrivateKey(readFileSync(path))
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${path} is not an Ed25519 private key`)
  return key
}

/** The raw public key (64 lowercase hex digits) of an Ed25519 key. */
export function rawPublicKeyHex(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: 'jwk' }) as { x: string }
  return Buffer.from(jwk.x, 'base64url').toString('hex')
}

/** The certificate document of a statement signed with the certifier's private key. */
export function signGeneratorCertificate(
  statement: GeneratorCertificateStatement,
  privateKey: KeyObject,
): SignedGeneratorCertificate {
  const signature = sign(null, Buffer.from(canonicalStatement(statement), 'utf8'), privateKey).toString('hex')
  const doc = parseSignedCertificate({ statement, signature })
  if (typeof doc === 'string') throw new Error(doc)
  return doc
}

/** A wrong argument is said in one line (exit 2), not as a stack trace. */
function said(run: () => number): number {
  try {
    return run()
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${certificateUsage}`)
    return 2
  }
}

export function certifierKey(args: string[]): number {
  return said(() => {
    process.stdout.write(`${rawPublicKeyHex(privateKeyOf(args))}\n`)
    return 0
  })
}

export function signCertificate(args: string[]): number {
  return said(() => signWith(args))
}

function signWith(args: string[]): number {
  const key = privateKeyOf(args)
  const statement = {
    certifier: option(args, '--certifier') ?? '',
    certificateRef: option(args, '--certificate') ?? '',
    buildSha256: option(args, '--build') ?? '',
    issuedOn: option(args, '--issued') ?? '',
    validUntil: option(args, '--valid-until') ?? null,
  }
  const doc = signGeneratorCertificate(statement, key)
  const text = `${JSON.stringify(doc, null, 2)}\n`
  const out = option(args, '--out')
  if (out) writeFileSync(out, text)
  else process.stdout.write(text)
  return 0
}
