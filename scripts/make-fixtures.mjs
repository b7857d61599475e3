#!/usr/bin/env node
// Regenerates src/formats/fixtures/binary/ — the harness's binary containers (docs/protocol.md §8) made from the
// corpus, plus a damaged variant of each — so the tests of src/formats/loadBytes.ts need no encoder.
//
//   node scripts/make-fixtures.mjs        (needs the zstd CLI: apt-get install -y zstd)
//
// Deterministic: same corpus and zstd version, same bytes (zip times are pinned, SQLite is written by sql.js).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { zipSync } from 'fflate'
import initSqlJs from 'sql.js'
import xxhash from 'xxhash-wasm'
import { CORPUS_DIR } from '../src/test/corpusDir.mjs'

const corpus = fileURLToPath(CORPUS_DIR)
const out = fileURLToPath(new URL('../src/formats/fixtures/binary/', import.meta.url))
mkdirSync(out, { recursive: true })

const ROOT_ID = '11111111-1111-4111-8111-111111111111' // the parent the corpus's subagent child names
const CHILD_ID = '22222222-2222-4222-8222-222222222222'
const ROOT_FILE = 'web-approval-composer-session.jsonl'
const CHILD_FILE = 'acp-agent-subagent-max-tokens-partial-child-session.jsonl'

const read = (name) => readFileSync(corpus + name, 'utf8')
const write = (name, bytes) => {
  writeFileSync(out + name, bytes)
  console.log(`${String(bytes.length).padStart(7)}  ${name}`)
}

try {
  execFileSync('zstd', ['--version'], { stdio: 'ignore' })
} catch {
  console.error('make-fixtures: the zstd CLI is missing (apt-get install -y zstd)')
  process.exit(2)
}

/** One zstd frame with a content checksum; `sized` also records the content size in the header. */
function zstdFrame(text, sized = false) {
  const input = Buffer.from(text, 'utf8')
  const args = ['-q', '-c', '-19', '--check', ...(sized ? [`--stream-size=${input.length}`] : [])]
  return new Uint8Array(execFileSync('zstd', args, { input }))
}

/** The lines of a JSONL text, each with its `\n`. */
function linesOf(text) {
  return text.split(/(?<=\n)/).filter((line) => line.length > 0)
}

/** session.jsonl.zstd as the harness writes it: the header line alone, then one frame per batch of lines. */
function zstdSession(text, batch = 12) {
  const lines = linesOf(text)
  const frames = [zstdFrame(lines[0])]
  for (let i = 1; i < lines.length; i += batch)
    frames.push(zstdFrame(lines.slice(i, i + batch).join(''), frames.length % 2 === 0))
  return { frames, bytes: concat(frames) }
}

// The same join as src/core/base/concatBytes.ts: this script runs in plain Node 20, which cannot import the
// project's TypeScript, and it must not need a build of the project to make the fixtures the build's tests read.
function concat(parts) {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  return bytes
}

const { h64Raw } = await xxhash()

/** A frame of raw (stored) blocks cut from `content` at the given sizes, with its checksum: several whole blocks. */
function rawBlockFrame(content, blockSizes) {
  const header = [0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x38] // checksum flag; window 128 KiB
  const parts = [new Uint8Array(header)]
  let at = 0
  blockSizes.forEach((size, k) => {
    const last = k === blockSizes.length - 1 ? 1 : 0
    const n = last ? content.length - at : size
    parts.push(
      new Uint8Array([((n << 3) | last) & 0xff, (n >> 5) & 0xff, (n >> 13) & 0xff]),
      content.subarray(at, at + n),
    )
    at += n
  })
  const checksum = Number(BigInt.asUintN(32, h64Raw(content)))
  parts.push(
    new Uint8Array([checksum & 0xff, (checksum >>> 8) & 0xff, (checksum >>> 16) & 0xff, checksum >>> 24]),
  )
  return concat(parts)
}

// ── session.jsonl.zstd ────────────────────────────────────────────────────────────────────────────────────────
for (const name of ['web-goal-multi-turn-actions-session.jsonl', 'acp-agent-packed-chunks-session.jsonl']) {
  write(`${name}.zstd`, zstdSession(read(name)).bytes)
}
{
  const text = read('acp-agent-packed-chunks-session.jsonl')
  const { frames, bytes } = zstdSession(text)
  // The last frame cut in the middle of its only block: nothing in it can be recovered.
  const last = frames.at(-1)
  write('torn-mid-block.session.jsonl.zstd', bytes.subarray(0, bytes.length - Math.ceil(last.length / 2)))
  // Frame 3's checksum with one bit flipped: a corrupt frame, read anyway.
  const flipped = bytes.slice()
  const frame3End = frames[0].length + frames[1].length + frames[2].length
  flipped[frame3End - 2] ^= 0x01
  write('bad-checksum.session.jsonl.zstd', flipped)
  // The last three lines as one frame of stored blocks (L1 + half of L2 | rest of L2 + part of L3 | rest of L3),
  // cut inside the third block: the first two blocks hold the two complete lines L1 and L2.
  const lines = linesOf(text)
  const head = zstdSession(lines.slice(0, -3).join(''))
  const tail = new TextEncoder().encode(lines.slice(-3).join(''))
  const [l1, l2] = lines.slice(-3).map((line) => Buffer.byteLength(line))
  const frame = rawBlockFrame(tail, [l1 + (l2 >> 1), l2 - (l2 >> 1) + 10, 0])
  write('torn-after-blocks.session.jsonl.zstd', concat([head.bytes, frame.subarray(0, frame.length - 12)]))
}

// ── dsh-session-<id>.zip ─────────────────────────────────────────────────────────────────────────────────────
const enc = (text) => new TextEncoder().encode(text)
const rootText = read(ROOT_FILE).replace('"id":"{{sessionId}}"', `"id":"${ROOT_ID}"`)
const childText = read(CHILD_FILE)
const media = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) // a PNG signature, no image
const mtime = new Date('2026-08-20T00:00:00Z')
const zipOf = (files) => zipSync(files, { level: 6, mtime })
{
  const full = zipOf({
    'session.jsonl': enc(rootText),
    [`subagents/${CHILD_ID}/session.jsonl`]: enc(childText),
    'media/screenshot-1.png': media,
  })
  write(`dsh-session-${ROOT_ID}.zip`, full)
  write(
    'zip-missing-root.zip',
    zipOf({ [`subagents/${CHILD_ID}/session.jsonl`]: enc(childText), 'media/a.png': media }),
  )
  // session.jsonl stored (not deflated) with one letter changed after the CRC was taken: a CRC-32 mismatch.
  const small = read('acp-agent-text-turn-session.jsonl')
  const stored = zipOf({ 'session.jsonl': [enc(small), { level: 0 }], 'media/a.png': media })
  const at = indexOf(stored, enc('"cwd":"{{cwd}}"'))
  stored[at + 11] = 'D'.charCodeAt(0)
  write('zip-crc-error.zip', stored)
  // Cut inside the subagent entry's data: no central directory, the root still readable from its local header.
  const childAt = indexOf(full, enc(`subagents/${CHILD_ID}/session.jsonl`))
  write('zip-truncated.zip', full.subarray(0, childAt + 200))
}

function indexOf(haystack, needle) {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer
    return i
  }
  throw new Error('needle not found')
}

// ── the SQLite session store ─────────────────────────────────────────────────────────────────────────────────
const SQL = await initSqlJs()
const SCHEMA = `
  PRAGMA page_size = 1024;
  CREATE TABLE persistence_state (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), store_id TEXT NOT NULL) STRICT;
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY, version INTEGER NOT NULL, created_at INTEGER NOT NULL, cwd TEXT, parent_session TEXT,
    seed_length INTEGER, origin TEXT, delegation_depth INTEGER, agent_preset TEXT, incarnation TEXT NOT NULL,
    revision INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE events (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL, type TEXT NOT NULL,
    time INTEGER NOT NULL, data ANY NOT NULL, source_event_seqs ANY, surface_op TEXT, ignorable INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
  ) STRICT;
  INSERT INTO persistence_state VALUES (1, 'chunkscope-fixture');
`

/** First seq as unsigned LEB128, then each next one as a zigzag-LEB128 delta. */
function encodeSeqs(seqs) {
  const bytes = []
  const leb = (value) => {
    do {
      let byte = value % 128
      value = Math.floor(value / 128)
      if (value > 0) byte |= 0x80
      bytes.push(byte)
    } while (value > 0)
  }
  seqs.forEach((seq, k) => {
    if (k === 0) return leb(seq)
    const delta = seq - seqs[k - 1]
    leb(delta >= 0 ? delta * 2 : -delta * 2 - 1)
  })
  return new Uint8Array(bytes)
}

/** `data` as the store keeps it: JSON text, or a zstd frame when the text is ≥ 4 KiB and compresses smaller. */
function storedData(value) {
  const text = JSON.stringify(value)
  if (Buffer.byteLength(text) < 4096) return text
  const frame = zstdFrame(text, true)
  return frame.length < Buffer.byteLength(text) ? frame : text
}

function addSession(db, id, text, parent = null) {
  const [headerLine, ...lines] = linesOf(text)
  const header = JSON.parse(headerLine)
  db.run('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, 1)', [
    id,
    header.version,
    header.createdAt,
    header.cwd ?? null,
    parent ?? header.parentSession ?? null,
    header.origin ?? null,
    header.delegationDepth ?? null,
    header.agentPreset === undefined ? null : JSON.stringify(header.agentPreset),
    `incarnation-${id.slice(0, 8)}`,
  ])
  const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  for (const line of lines) {
    const record = JSON.parse(line)
    const packed = record.type.endsWith('-chunks')
    insert.run([
      id,
      packed ? record.seq0 : record.seq,
      record.type,
      packed ? record.time0 : (record.time ?? 0),
      storedData(record.data),
      record.sourceEventSeqs ? encodeSeqs(record.sourceEventSeqs) : null,
      record.surfaceOp === undefined ? null : JSON.stringify(record.surfaceOp),
      0,
    ])
  }
  insert.free()
}

function store({ applicationId = 0x44534850, userVersion = 17, sessions }) {
  const db = new SQL.Database()
  db.run(SCHEMA)
  for (const [id, text, parent] of sessions) addSession(db, id, text, parent)
  db.run(`PRAGMA application_id = ${applicationId}`)
  db.run(`PRAGMA user_version = ${userVersion}`)
  db.run('VACUUM')
  const bytes = db.export()
  db.close()
  return bytes
}

write(
  'dsh-sessions.sqlite',
  store({
    sessions: [
      [ROOT_ID, read(ROOT_FILE)],
      [CHILD_ID, childText],
    ],
  }),
)
write('sqlite-wrong-application-id.sqlite', store({ applicationId: 0, sessions: [[CHILD_ID, childText]] }))
write('sqlite-wrong-user-version.sqlite', store({ userVersion: 15, sessions: [[CHILD_ID, childText]] }))
{
  // Damaged rows: data that is not JSON, source_event_seqs cut inside a varint, a zstd BLOB with a bad checksum.
  const db = new SQL.Database()
  db.run(SCHEMA)
  addSession(db, CHILD_ID, childText)
  db.run(`UPDATE events SET data = '{"turn":' WHERE session_id = ? AND seq = 1`, [CHILD_ID])
  const cited = db.exec(`SELECT seq FROM events WHERE source_event_seqs IS NOT NULL ORDER BY seq LIMIT 1`)[0]
    .values[0][0]
  db.run(`UPDATE events SET source_event_seqs = x'85' WHERE session_id = ? AND seq = ?`, [CHILD_ID, cited])
  const blob = zstdFrame(JSON.stringify({ note: 'x'.repeat(5000) }), true)
  blob[blob.length - 1] ^= 0xff
  db.run(`INSERT INTO events VALUES (?, 999, 'custom/blob', 0, ?, NULL, NULL, 0)`, [CHILD_ID, blob])
  db.run('PRAGMA application_id = 1146308688')
  db.run('PRAGMA user_version = 17')
  write('sqlite-bad-rows.sqlite', db.export())
  db.close()
}
{
  const db = new SQL.Database()
  db.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')")
  write('sqlite-not-a-session-store.sqlite', db.export())
  db.close()
}
