import http from 'node:http'
const agent = new http.Agent({ keepAlive: true, maxSockets: 100 })
const body = JSON.stringify({ boards: [[1,2,3,4,5,6],[7,8,9,10,11,12]], draws: 1, player: { name: 'Ana Pérez', document: '1234567' } })
let done = 0; const lat = []
const end = Date.now() + 5000
function one() { return new Promise((res, rej) => { const t = performance.now(); const r = http.request({ host: '127.0.0.1', port: 18080, path: '/api/x', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (resp) => { const chunks = []; resp.on('data', (c) => chunks.push(c)); resp.on('end', () => { lat.push(performance.now() - t); res() }) }); r.on('error', rej); r.end(body) }) }
async function client() { while (Date.now() < end) { await one(); done++ } }
const t0 = Date.now()
await Promise.all(Array.from({ length: 100 }, client))
lat.sort((a, b) => a - b)
console.log('rps', done / ((Date.now() - t0) / 1000), 'p99', lat[Math.floor(lat.length * 0.99)])
process.exit(0)
