// Boots a TypeScript worker thread: registers the tsx loader in this thread (loader hooks of the main thread do
// not reach workers), then imports the module named in workerData.entry.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
