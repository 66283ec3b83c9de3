import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.ts'

// `npm run test:bun`: Vitest on Bun. Zod is bundled by Vitest instead of loaded as an external module: through
// Vitest's external import on Bun, zod's `export * as z` namespace comes back undefined.
export default mergeConfig(base, defineConfig({ test: { server: { deps: { inline: ['zod'] } } } }))
