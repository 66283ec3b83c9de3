#!/usr/bin/env node
// `npx bolillo ...`: runs the TypeScript CLI through tsx, so no build step is needed.
import { register } from 'tsx/esm/api'

register()
await import('../server/src/cli/main.ts')
