#!/usr/bin/env node
// `npx bolillo ...`: runs the TypeScript CLI through tsx, so no build step is needed (Bun runs TypeScript itself).
if (!process.versions.bun) (await import('tsx/esm/api')).register()
await import('../server/src/cli/main.ts')
