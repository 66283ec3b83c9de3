import js from '@eslint/js'
import tseslint from 'typescript-eslint'

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
      globals: Object.fromEntries(['process', 'console', 'Buffer', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'URL', 'fetch', 'AbortController', 'TextEncoder', 'TextDecoder'].map((g) => [g, 'readonly'])),
    },
  },
  {
    // The domain core stays pure: no database, network, file system or clock (DESIGN.md, STYLE.md §1).
    files: ['server/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:fs', 'node:fs/*', 'fs', 'node:net', 'node:http', 'node:os', 'node:child_process', 'better-sqlite3', 'pg', 'socket.io', 'hono', '../db/*', '../http/*', '../app/*', '../realtime/*'], message: 'The domain core is pure: no I/O.' },
      ] }],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: 'Time arrives as a value in the domain.' },
        { object: 'Math', property: 'random', message: 'Randomness arrives as an Rng in the domain.' },
      ],
    },
  },
  {
    // The shared kernel is pure too, except the modules that exist to do I/O.
    files: ['server/src/shared/**/*.ts'],
    ignores: ['server/src/shared/**/*.test.ts', 'server/src/shared/beacon-relay.ts', 'server/src/shared/sealing-key-file.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:fs', 'node:fs/*', 'fs', 'node:net', 'node:http', 'node:os', 'node:child_process'], message: 'The shared kernel is pure: no I/O.' },
      ] }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'Time arrives as a value.' }],
    },
  },
)
