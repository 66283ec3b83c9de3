import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// The pure rule modules of each product line and the kernel (DESIGN.md "Layout"): no database, network, file
// system or clock. Their tests sit beside them and follow the same rule.
const pureModules = {
  bingo: ['card', 'detector', 'game', 'modalities', 'pots', 'prima', 'series-cursor', 'betting-plan'],
  lotto: ['plan', 'rules'],
  lottery: ['rules'],
  instant: ['codes', 'design', 'generate', 'play', 'rules'],
  reports: ['figures'],
  shared: [
    'record-id',
    'draw-proof',
    'draw-proof-v2',
    'beacon',
    'sealing',
    'checkpoints',
    'errors',
    'journal-chain',
    'money',
    'rng',
    'ticket-code',
    'profile',
    'lottery-common',
    'time-zone',
    'statistics',
    'card-layout',
  ],
}
// shared/ and hardware/ sit below the product lines and the cash desk.
const layerRule = {
  regex:
    '^(\\.\\./)+(server/src/)?(bingo|lotto|lottery|draws|instant|cashdesk|equipment|reports|access|http|realtime)(/|$)',
  message: 'shared/ and hardware/ import no product line: move what both need to shared/.',
}
const pureImports = {
  group: [
    'node:fs',
    'node:fs/*',
    'fs',
    'node:net',
    'node:http',
    'node:os',
    'node:child_process',
    'better-sqlite3',
    'pg',
    'socket.io',
    'hono',
    '**/db/*',
    '**/http/*',
    '**/realtime/*',
    '**/service.ts',
    '**/*-service.ts',
    '**/store.ts',
    // A line whose SQL grew large keeps it in a store/ folder of topic modules (bingo/store/).
    '**/store/*',
    '**/routes.ts',
  ],
  message: 'Rule modules are pure: no I/O.',
}
const pureFiles = Object.entries(pureModules).flatMap(([dir, names]) =>
  names.flatMap((n) => [`server/src/${dir}/${n}.ts`, `server/src/${dir}/${n}.test.ts`]),
)

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-output/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Plain JavaScript runs on Node: its globals.
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'performance',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
          'URL',
          'fetch',
          'AbortController',
          'TextEncoder',
          'TextDecoder',
        ].map((g) => [g, 'readonly']),
      ),
    },
  },
  {
    // The two screen roots share only web/ (DESIGN.md "Layout"): neither reaches into the other.
    files: ['kiosk/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+display(/|$)',
              message: 'kiosk/ does not import display/: move what both need to web/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['display/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+kiosk(/|$)',
              message: 'display/ does not import kiosk/: move what both need to web/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 17: the back office is a third screen root; it shares only web/ (and the server's pure modules).
    files: ['admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(kiosk|display)(/|$)',
              message: 'admin/ does not import kiosk/ or display/: move what both need to web/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 23: the cash desk owns money; product lines settle tickets through the port in shared/settlement.ts and
    // never import the cash desk (it imports them).
    files: ['server/src/{bingo,lotto,lottery,draws,instant,equipment,reports}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+cashdesk(/|$)',
              message:
                'A product line does not import cashdesk/: take an OnPaid (shared/settlement.ts) or move the use case to cashdesk/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 23 point 6: the draw lifecycle sits below lotto/ and lottery/: each line gives its rules (a DrawLine),
    // the lifecycle imports neither line, nor the cash desk.
    files: ['server/src/draws/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(cashdesk|lotto|lottery)(/|$)',
              message: 'draws/ imports no product line nor cashdesk/: take what differs from the line (DrawLine).',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 25: the lower layers import no product line (shared/ is the kernel; hardware/ drives devices).
    files: ['server/src/shared/**/*.ts', 'hardware/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [layerRule] }],
    },
  },
  {
    // Rule modules stay pure: no database, network, file system or clock (DESIGN.md, STYLE.md §1).
    files: pureFiles,
    // The sealing test also checks the key file's modes on disk (sealing-key-file.ts).
    ignores: ['server/src/shared/sealing.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pureImports,
            { regex: '^(\\.\\./)+cashdesk(/|$)', message: 'A product line does not import cashdesk/.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Time arrives as a value in the domain.' },
        { object: 'Math', property: 'random', message: 'Randomness arrives as an Rng in the domain.' },
      ],
    },
  },
  {
    // Issue 28: the regulator's checker shares no code with the server's use cases, nor with the feed that wrote
    // what it checks. It may use only the published contracts: the draw-proof verifier and the ticket-code format.
    files: ['server/src/regulator-check/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(\\.\\./)+(bingo|lotto|lottery|draws|instant|cashdesk|equipment|reports|access|http|realtime|regulator|db|cli)(/|$)',
              message: 'regulator-check/ is independent: it imports no use case, store, route or the feed itself.',
            },
            {
              regex: '^(\\.\\./)+shared/(?!(draw-proof-v2|draw-proof|beacon|ticket-code|errors)\\.ts$)',
              message:
                'regulator-check/ may import from shared/ only the published contracts (draw-proof-v2.ts, ticket-code.ts).',
            },
            {
              regex: '^(\\.\\./)+(\\.\\./)+(server|printer|hardware|web|kiosk|display|admin)(/|$)',
              message: 'regulator-check/ is independent of the rest of the repository.',
            },
          ],
        },
      ],
    },
  },
  {
    // The pure modules of shared/ keep the layer rule too (the block above replaced it for them).
    files: pureModules.shared.map((n) => `server/src/shared/${n}.ts`),
    rules: {
      'no-restricted-imports': ['error', { patterns: [pureImports, layerRule] }],
    },
  },
)
