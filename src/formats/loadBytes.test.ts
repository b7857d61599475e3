import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import initSqlJs, { type SqlJsStatic } from 'sql.js'
import { loadSource } from './load'
import { loadBytes } from './loadBytes'
import type { LoadedSource } from './types'
import { walkZstdFrames } from './zstdFrames'
import { CORPUS_DIR } from '../test/corpus'

// The fixtures are made from the corpus by scripts/make-fixtures.mjs; each container must read back to
// exactly what loadSource makes of the plain file it came from.
const corpus = fileURLToPath(CORPUS_DIR)
const plain = (name: string) => readFileSync(corpus + name, 'utf8')
const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/binary/${name}`, import.meta.url)))
let started: Promise<SqlJsStatic> | null = null
/** sql.js as Node loads it from node_modules (the CLI's loader is src/cli/sqlJsNode.ts, out of formats' reach). */
const loadSqlJsNode = () => (started ??= initSqlJs())
const load = (name: string) => loadBytes(fixture(name), name, { sqlJs: loadSqlJsNode })

const ROOT_ID = '11111111-1111-4111-8111-111111111111'
const CHILD_ID = '22222222-2222-4222-8222-222222222222'
const ROOT_FILE = 'web-approval-composer-session.jsonl'
const CHILD_FILE = 'acp-agent-subagent-max-tokens-partial-child-session.jsonl'
const PACKED_FILE = 'acp-agent-packed-chunks-session.jsonl'

function linesOf(text: string): string[] {
  return text.split(/(?<=\n)/).filter((line) => line.length > 0)
}

function messages(source: LoadedSource, severity?: string): string[] {
  return source.diagnostics
    .filter((d) => severity === undefined || d.severity === severity)
    .map((d) => d.message)
}

describe('loadBytes on session.jsonl.zstd', () => {
  it.each(['web-goal-multi-turn-actions-session.jsonl', PACKED_FILE])(
    'reads %s.zstd to the plain log',
    async (name) => {
      const source = await load(`${name}.zstd`)
      const expected = loadSource(plain(name), `${name}.zstd`)
      expect(source.format).toBe('dsh-session-zstd')
      expect(source.sessions).toHaveLength(1)
      expect(source.sessions[0]!.header).toEqual(expected.sessions[0]!.header)
      expect(source.sessions[0]!.events).toEqual(expected.sessions[0]!.events)
      expect(source.diagnostics).toEqual(expected.diagnostics)
    },
  )

  it('walks one frame for the header line and one per batch, with checksums', () => {
    const { frames, garbageAt } = walkZstdFrames(fixture(`${PACKED_FILE}.zstd`))
    expect(garbageAt).toBeNull()
    expect(frames.length).toBeGreaterThan(2)
    expect(frames.every((f) => f.kind === 'zstd' && f.checksum && f.torn === null)).toBe(true)
    // The script records the content size on every other batch frame: both header forms occur.
    expect(frames.some((f) => f.contentSize !== null)).toBe(true)
    expect(frames.some((f) => f.contentSize === null)).toBe(true)
  })

  it('names the frame and byte offset of a checksum mismatch and still shows every event', async () => {
    const source = await load('bad-checksum.session.jsonl.zstd')
    const frame3 = walkZstdFrames(fixture('bad-checksum.session.jsonl.zstd')).frames[2]!
    expect(source.sessions[0]!.events).toEqual(loadSource(plain(PACKED_FILE)).sessions[0]!.events)
    expect(source.diagnostics).toEqual([
      {
        byte: frame3.start,
        severity: 'error',
        message: expect.stringMatching(
          new RegExp(
            `^zstd frame 3 at byte ${frame3.start}: content checksum mismatch \\(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\\)`,
          ),
        ),
      },
    ])
  })

  it('keeps the complete lines of a torn last frame’s whole blocks', async () => {
    const source = await load('torn-after-blocks.session.jsonl.zstd')
    const lines = linesOf(plain(PACKED_FILE))
    // The cut frame held the last three lines; its two whole blocks end inside the third.
    const expected = loadSource(lines.slice(0, -1).join(''))
    expect(source.sessions[0]!.events).toEqual(expected.sessions[0]!.events)
    const [torn] = source.diagnostics
    expect(torn).toMatchObject({ severity: 'warning', byte: expect.any(Number) })
    expect(torn!.message).toMatch(
      /^zstd frame 5 at byte \d+: torn tail: .*block 3 is cut.*kept the 2 complete lines/,
    )
  })

  it('drops a torn last frame with no whole block, saying so', async () => {
    const source = await load('torn-mid-block.session.jsonl.zstd')
    const lines = linesOf(plain(PACKED_FILE))
    const lastFrameStart = 1 + 12 * Math.floor((lines.length - 2) / 12)
    const expected = loadSource(lines.slice(0, lastFrameStart).join(''))
    expect(source.sessions[0]!.events).toEqual(expected.sessions[0]!.events)
    expect(messages(source, 'warning')[0]).toMatch(
      /^zstd frame \d+ at byte \d+: torn tail: .*no complete block to recover; dropped$/,
    )
  })

  it('reports bytes after the frames and never throws on a stub', async () => {
    const withGarbage = new Uint8Array([...fixture(`${PACKED_FILE}.zstd`), 1, 2, 3])
    const source = await loadBytes(withGarbage)
    expect(source.sessions[0]!.events).toHaveLength(loadSource(plain(PACKED_FILE)).sessions[0]!.events.length)
    expect(messages(source, 'error')).toEqual([
      expect.stringMatching(/does not start a Zstandard frame; the remaining 3 bytes are skipped$/),
    ])
    const stub = await loadBytes(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd]))
    expect(stub.format).toBe('dsh-session-zstd')
    expect(stub.sessions).toEqual([])
    expect(messages(stub, 'error')).toEqual(['zstd: no text could be read from its 1 frame'])
  })
})

describe('loadBytes on the web UI’s dsh-session-<id>.zip', () => {
  it('reads the root session first, then its subagent, and leaves media alone', async () => {
    const source = await load(`dsh-session-${ROOT_ID}.zip`)
    expect(source.format).toBe('dsh-session-zip')
    const [root, child] = source.sessions
    expect(source.sessions).toHaveLength(2)
    expect(root!.header?.id).toBe(ROOT_ID)
    expect(root!.events).toEqual(loadSource(plain(ROOT_FILE)).sessions[0]!.events)
    expect(child!.header).toMatchObject({
      id: CHILD_ID,
      parentSession: ROOT_ID,
      origin: 'subagent',
      delegationDepth: 1,
    })
    expect(child!.events).toEqual(loadSource(plain(CHILD_FILE)).sessions[0]!.events)
    expect(source.diagnostics).toEqual([
      { severity: 'info', message: 'zip: 1 other entry (media/screenshot-1.png) not read' },
    ])
  })

  it('reads the subagents of an export without its root session.jsonl', async () => {
    const source = await load('zip-missing-root.zip')
    expect(source.sessions.map((s) => s.header?.id)).toEqual([CHILD_ID])
    expect(messages(source, 'error')).toEqual([
      'zip: no session.jsonl at the root of the archive; reading its 1 subagent log only',
    ])
  })

  it('reports a CRC-32 mismatch with the entry and shows its content', async () => {
    const source = await load('zip-crc-error.zip')
    expect(source.sessions).toHaveLength(1)
    expect(source.sessions[0]!.header?.cwd).toBe('{{cwD}}')
    expect(source.diagnostics[0]).toMatchObject({
      byte: 0,
      severity: 'error',
      message: expect.stringMatching(
        /^zip entry session\.jsonl at byte 0: CRC-32 mismatch \(stored 0x[0-9a-f]{8}, computed/,
      ),
    })
  })

  it('reads a truncated archive from its local headers', async () => {
    const source = await load('zip-truncated.zip')
    expect(source.sessions.map((s) => s.header?.id)).toEqual([ROOT_ID])
    expect(source.sessions[0]!.events).toEqual(loadSource(plain(ROOT_FILE)).sessions[0]!.events)
    expect(messages(source)).toEqual([
      'zip: no end-of-central-directory record: the archive is truncated; reading its entries from their local headers',
      expect.stringMatching(
        new RegExp(`^zip entry subagents/${CHILD_ID}/session\\.jsonl at byte \\d+: its data is cut short`),
      ),
    ])
  })

  it('reads a session.jsonl.zstd entry, and prefixes its diagnostics with the entry', async () => {
    const { zipSync } = await import('fflate')
    const zstd = fixture('bad-checksum.session.jsonl.zstd')
    const source = await loadBytes(zipSync({ 'export/session.jsonl.zstd': zstd }), 'x.zip')
    expect(source.format).toBe('dsh-session-zip')
    expect(source.sessions[0]!.events).toEqual(loadSource(plain(PACKED_FILE)).sessions[0]!.events)
    expect(source.diagnostics).toEqual([
      {
        severity: 'error',
        message: expect.stringMatching(
          /^export\/session\.jsonl\.zstd: zstd frame 3 at byte \d+: content checksum mismatch/,
        ),
      },
    ])
  })

  it('does not take a zip without session.jsonl for a session export', async () => {
    const { zipSync } = await import('fflate')
    const source = await loadBytes(zipSync({ 'notes.txt': new TextEncoder().encode('hi') }), 'x.zip')
    expect(source).toMatchObject({ format: null, sessions: [] })
    expect(messages(source)).toEqual([
      'zip: not a DeepSeek Harness session export: no session.jsonl in the archive (entries: notes.txt)',
    ])
  })
})

describe('loadBytes on the SQLite session store', () => {
  it('reads every session, parent first, event for event as the plain logs', async () => {
    const source = await load('dsh-sessions.sqlite')
    expect(source.format).toBe('dsh-sqlite')
    expect(source.diagnostics).toEqual([])
    const [root, child] = source.sessions
    expect(source.sessions).toHaveLength(2)
    expect(root!.header).toMatchObject({
      id: ROOT_ID,
      version: 0,
      createdAt: 1785403668101,
      cwd: '{{cwd}}/workspace',
    })
    expect(child!.header).toMatchObject({
      id: CHILD_ID,
      parentSession: ROOT_ID,
      origin: 'subagent',
      delegationDepth: 1,
    })
    // Same events down to `line`: a row's position counts the header as line 1, as in session.jsonl.
    expect(root!.events).toEqual(loadSource(plain(ROOT_FILE)).sessions[0]!.events)
    expect(child!.events).toEqual(loadSource(plain(CHILD_FILE)).sessions[0]!.events)
    expect(root!.streams.map((s) => s.id)).toEqual(
      loadSource(plain(ROOT_FILE)).sessions[0]!.streams.map((s) => s.id),
    )
  })

  it('exercises the store’s encodings: zstd data BLOBs, LEB128 source_event_seqs, packed rows', async () => {
    const sql = await loadSqlJsNode()
    const db = new sql.Database(fixture('dsh-sessions.sqlite'))
    const count = (where: string) =>
      Number(db.exec(`SELECT count(*) FROM events WHERE ${where}`)[0]!.values[0]![0])
    expect(count(`typeof(data) = 'blob'`)).toBeGreaterThan(0)
    expect(count(`typeof(source_event_seqs) = 'blob'`)).toBeGreaterThan(0)
    expect(count(`type LIKE '%-chunks'`)).toBeGreaterThan(0)
    db.close()
  })

  it('reads on past a wrong application_id or user_version, saying so', async () => {
    const expected = loadSource(plain(CHILD_FILE)).sessions[0]!.events
    const wrongId = await load('sqlite-wrong-application-id.sqlite')
    expect(wrongId.sessions[0]!.events).toEqual(expected)
    expect(messages(wrongId)).toEqual([
      'sqlite: application_id is 0x00000000, expected 0x44534850 (DeepSeek Harness); it has sessions and events tables, so reading on',
    ])
    const wrongVersion = await load('sqlite-wrong-user-version.sqlite')
    expect(wrongVersion.sessions[0]!.events).toEqual(expected)
    expect(messages(wrongVersion)).toEqual([
      'sqlite: schema version (user_version) 15; this reader knows 17 (docs/protocol.md §8) and reads on',
    ])
  })

  it('says when the store is in WAL mode, whose newest rows are in another file', async () => {
    const bytes = fixture('sqlite-wrong-user-version.sqlite')
    bytes[18] = 2
    bytes[19] = 2
    const source = await loadBytes(bytes, 'store.sqlite', { sqlJs: loadSqlJsNode })
    expect(source.sessions[0]!.events).toEqual(loadSource(plain(CHILD_FILE)).sessions[0]!.events)
    expect(messages(source, 'info')).toEqual([expect.stringMatching(/^sqlite: the store is in WAL mode: /)])
  })

  it('reports damaged rows with their session and seq and reads the rest', async () => {
    const source = await load('sqlite-bad-rows.sqlite')
    const at = `session ${CHILD_ID}: seq`
    expect(messages(source)).toEqual([
      expect.stringMatching(new RegExp(`^${at} 1 \\(.+\\): data is not JSON \\(.+\\); row skipped$`)),
      `${at} 2 (turn/start): seq gap: expected 1, got 2`,
      expect.stringMatching(
        new RegExp(
          `^${at} \\d+ \\(assistant/message\\): source_event_seqs is cut inside a varint \\(after 0 seqs\\); ignored$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^${at} 999 \\(custom/blob\\): data zstd BLOB: content checksum mismatch`),
      ),
      expect.stringMatching(/assistant\/message seq \d+ has no sourceEventSeqs: unknown provenance/),
    ])
    expect(source.sessions[0]!.events).toHaveLength(
      loadSource(plain(CHILD_FILE)).sessions[0]!.events.length - 1,
    )
  })

  it('does not take another SQLite database for a session store', async () => {
    const source = await load('sqlite-not-a-session-store.sqlite')
    expect(source).toMatchObject({ format: null, sessions: [] })
    expect(messages(source)).toEqual([
      'sqlite: not a DeepSeek Harness session store: application_id 0x00000000 (expected 0x44534850), no sessions/events tables (tables: notes)',
    ])
  })

  it('says so when no SQLite engine was handed in', async () => {
    const source = await loadBytes(fixture('dsh-sessions.sqlite'), 'store.sqlite')
    expect(source).toMatchObject({ format: 'dsh-sqlite', sessions: [] })
    expect(messages(source)).toEqual([
      'sqlite: a SQLite database, but no SQLite engine (sql.js) was provided to read it',
    ])
  })
})

describe('loadBytes on text', () => {
  it('decodes UTF-8 and hands the text to loadSource', async () => {
    const text = plain(PACKED_FILE)
    expect(await loadBytes(new TextEncoder().encode(text), 'a.jsonl')).toEqual(loadSource(text, 'a.jsonl'))
    expect(await loadBytes(new Uint8Array(), 'empty')).toEqual(loadSource('', 'empty'))
  })

  it('reports the first byte that is not UTF-8 and reads on', async () => {
    const text = plain(PACKED_FILE)
    const bytes = new TextEncoder().encode(text)
    const at = text.indexOf('"cwd"') + 2
    bytes[at] = 0xff
    const source = await loadBytes(bytes)
    expect(source.format).toBe('dsh-session-jsonl')
    expect(source.diagnostics[0]).toEqual({
      byte: at,
      severity: 'warning',
      message: `invalid UTF-8 at byte ${at} of the file; bad bytes are shown as U+FFFD`,
    })
    expect(source.sessions[0]!.events).toEqual(loadSource(text).sessions[0]!.events)
  })
})
