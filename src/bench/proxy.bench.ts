import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startProxy } from '../cli/proxy/proxy'
import { postRaw, type RawResponse } from '../cli/proxy/testClient'
import { mockScript, startMockUpstream, type MockUpstream } from '../test/mockUpstream'
import { loadBaseline, saveResults } from './baseline'
import { flatten, median, percentile, printTable, type Row } from './report'

// `chunkscope proxy`: the latency it adds per chunk. The same scripted stream (the mock's slow drip) is read
// directly from the mock and through the proxy (which also translates and writes every chunk to its capture log);
// a chunk's latency is the time from the mock writing its event to the client holding all of its bytes. Mock,
// proxy and client share one process and one clock (performance.now()), so the figures include the proxy's work
// competing with both on one event loop: an upper bound for a proxy in its own process.
const EVENTS = 200
const DELAY_MS = 2
const RUNS = 5
const title = 'proxy, added latency per chunk'

/** Latency of each event: the mock's write time → the arrival holding the event's last byte. */
function latencies(mock: MockUpstream, requestIndex: number, response: RawResponse): number[] {
  const pieces = mockScript('drip', { events: EVENTS, delayMs: DELAY_MS }).pieces
  const writes = mock.requests[requestIndex]!.writes
  if (response.bytes.toString('utf8') !== pieces.join('')) throw new Error('bytes differ from the script')
  const out: number[] = []
  let end = 0
  let arrival = 0
  for (let k = 0; k < pieces.length; k++) {
    end += Buffer.byteLength(pieces[k]!)
    while (response.arrivals[arrival]!.total < end) arrival += 1
    out.push(response.arrivals[arrival]!.at - writes[k]!)
  }
  return out
}

async function measure(mock: MockUpstream, base: string): Promise<number[]> {
  const all: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const index = mock.requests.length
    const response = await postRaw(`${base}/chat/completions`, {
      headers: { 'x-mock-delay-ms': String(DELAY_MS), 'x-mock-events': String(EVENTS) },
      body: { model: 'mock-drip', stream: true },
    })
    all.push(...latencies(mock, index, response))
  }
  return all
}

const mock = await startMockUpstream()
const out = mkdtempSync(join(tmpdir(), 'chunkscope-proxy-bench-'))
const proxy = await startProxy({ upstream: mock.url, out })
try {
  await measure(mock, mock.url) // warm-up, both paths
  await measure(mock, proxy.url)
  const direct = await measure(mock, mock.url)
  const proxied = await measure(mock, proxy.url)
  await proxy.settled()
  const rows: Row[] = [
    {
      name: 'median latency, through the proxy',
      value: median(proxied),
      unit: 'ms',
      reference: { label: 'direct', value: median(direct) },
    },
    {
      name: 'p99 latency, through the proxy',
      value: percentile(proxied, 99),
      unit: 'ms',
      reference: { label: 'direct', value: percentile(direct, 99) },
    },
    { name: 'added latency, median', value: median(proxied) - median(direct), unit: 'ms' },
    { name: 'added latency, p99', value: percentile(proxied, 99) - percentile(direct, 99), unit: 'ms' },
    { name: `chunks measured per path (${RUNS}×${EVENTS + 3})`, value: proxied.length, unit: 'events' },
  ]
  printTable(title, rows, loadBaseline())
  saveResults(flatten(title, rows))
} finally {
  await proxy.close()
  await mock.close()
  rmSync(out, { recursive: true, force: true })
}
