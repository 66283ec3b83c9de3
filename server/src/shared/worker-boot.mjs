// Boots a TypeScript worker thread: registers the tsx loader in this thread (loader hooks of the main thread do
// not reach workers), then imports the module named in workerData.entry.
// Bun runs TypeScript itself and has no loader hooks to register.
import { workerData } from 'node:worker_threads'

if (!process.versions.bun) (await import('tsx/esm/api')).register()
await import(workerData.entry)
