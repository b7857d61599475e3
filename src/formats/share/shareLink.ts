import { readCapped } from '../../core/base/readCapped'
import { isRecord, parseJson } from '../json'
import { MAX_JSON_DEPTH } from '../limits'
import { decodeBody } from './codecV2'
import { decodeBodyV3, encodeBodyV3 } from './codecV3'
import { aad, checkMatches, headerOf, modeOf, setMode, writeCheck } from './frame'
import { openSharePayload, type OpenedShare, type SharePayload } from './payload'

/**
 * Share links: `#v5.<base64url frame>` (docs/protocol.md §14). Everything travels in the fragment, which browsers
 * never send to a server. Only the platform (crypto.subtle, TextEncoder, btoa/atob, DecompressionStream for v1)
 * and fflate (synchronous deflate with a preset dictionary, which CompressionStream cannot take) are used, so the
 * same code runs in the app, the worker and the CLI.
 *
 * Frame (bytes, before base64url), v1–v3:
 *
 * | bytes | plain (mode 0)     | encrypted (mode 1)                                                              |
 * |-------|--------------------|---------------------------------------------------------------------------------|
 * | 0     | 0                  | 1                                                                               |
 * | 1–4   | CRC-32 (big-endian) of byte 0 and bytes 5…end                                                        |
 * | 5…    | body               | PBKDF2 iterations (uint32 BE), salt (16), AES-GCM iv (12), AES-GCM(body) with bytes 0–36 as additional data |
 *
 * v4 and v5: bytes 0–1 hold the mode (top 2 bits) and the top 14 bits of the CRC-32 of the mode (as a byte) and bytes
 * 2…end; then the body, or iterations, salt, iv and AES-GCM(body) with bytes 0–33 (check zeroed) as additional data.
 *
 * Body: v5, the columnar layout (layout.ts) in one range-coded stream under primed models, its recorded message
 * coded against its chunks and its random tool-call ids apart (codecV3.ts, version 5); v4 (opened; written when
 * asked, byte for byte), the same without those; v3 (opened; written when asked), the same under v3's primer; v2 (opened), the same layout deflated
 * (codecV2.ts); v1 (opened), deflate-raw(UTF-8 JSON). The key is PBKDF2-HMAC-SHA-256(passphrase, salt, iterations)
 * → AES-GCM-256. The check tells a damaged or cut link from a wrong passphrase (GCM's tag alone cannot);
 * decompression stops past `maxBytes`.
 */

/** The version new links are written in; every older one still opens. */
export const SHARE_VERSION = 5
export const SHARE_PREFIX = `v${SHARE_VERSION}.`
/** Decoding refuses more decompressed JSON than this by default (a crafted link cannot exhaust memory). */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024
export const DEFAULT_ITERATIONS = 250_000
/** Iteration bounds a link may ask for: below is too weak to accept, above would freeze the opener. */
export const MIN_ITERATIONS = 10_000
export const MAX_ITERATIONS = 5_000_000

/** The limits people hit when pasting a link (characters of the whole URL). */
export const LINK_LIMITS = [
  { chars: 2_000, label: 'chat tools' },
  { chars: 8_000, label: 'many trackers and servers' },
  { chars: 2 * 1024 * 1024, label: 'browsers' },
] as const

const MODE_PLAIN = 0
const MODE_ENCRYPTED = 1
const SALT = 16
const IV = 12

export type EncodeOptions = {
  /** Encrypt with AES-GCM under a key derived from this passphrase. */
  readonly passphrase?: string
  readonly iterations?: number
  /**
   * Awaited between the steps of a big payload's encoding (a macrotask by default), so a page stays responsive
   * while a big stream is encoded.
   */
  readonly pause?: () => Promise<void>
  /** Writes an older layout (3 or 4) instead of today's: only to prove old links are still written alike. */
  readonly version?: 3 | 4
}

export type DecodeOptions = {
  readonly passphrase?: string
  /** Cap on the decompressed payload (bytes); default {@link DEFAULT_MAX_BYTES}. */
  readonly maxBytes?: number
}

export type DecodedLink = OpenedShare & { readonly version: number; readonly encrypted: boolean }

export type LinkError = {
  readonly error: string
  /** The link is encrypted and no passphrase was given: ask for one. */
  readonly needsPassphrase?: true
  /** A passphrase was given and the link is intact, so the passphrase is wrong: ask again. */
  readonly wrongPassphrase?: true
}

/**
 * The fragment for a payload, without `#`: `v5.…`. Append it to the app's URL: `${origin}${pathname}#${fragment}`.
 *
 * @example
 * const fragment = await encodeShareLink(buildSharePayload(input), { passphrase: 'tulip' })
 */
export async function encodeShareLink(payload: SharePayload, options: EncodeOptions = {}): Promise<string> {
  const missing = missingPlatform(options.passphrase !== undefined)
  if (missing !== null) throw new Error(missing)
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
  const version = options.version ?? SHARE_VERSION
  const header = headerOf(version)
  const compressed = await encodeBodyV3(payload, pause, version)
  let frame: Uint8Array
  if (options.passphrase === undefined) {
    frame = new Uint8Array(header + compressed.length)
    frame.set(compressed, header)
    setMode(frame, version, MODE_PLAIN)
  } else {
    const iterations = options.iterations ?? DEFAULT_ITERATIONS
    const salt = crypto.getRandomValues(new Uint8Array(SALT))
    const iv = crypto.getRandomValues(new Uint8Array(IV))
    const head = new Uint8Array(header + 4 + SALT + IV)
    setMode(head, version, MODE_ENCRYPTED)
    new DataView(head.buffer).setUint32(header, iterations)
    head.set(salt, header + 4)
    head.set(iv, header + 4 + SALT)
    const key = await deriveKey(options.passphrase, salt, iterations, 'encrypt')
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: aad(head, version) },
        key,
        compressed,
      ),
    )
    frame = new Uint8Array(head.length + sealed.length)
    frame.set(head)
    frame.set(sealed, head.length)
  }
  writeCheck(frame, version)
  return `v${version}.${toBase64Url(frame)}`
}

/** Whether a URL fragment (with or without `#`) is a share link of any version. */
export function isShareFragment(fragment: string): boolean {
  return /^#?v\d+\./.test(fragment)
}

/** What can be told without decoding: the version and whether a passphrase will be needed (null: not a link). */
export function inspectShareLink(fragment: string): { version: number; encrypted: boolean } | null {
  const match = /^#?v(\d+)\.([A-Za-z0-9_-]*)$/.exec(fragment.trim())
  if (match === null) return null
  const version = Number(match[1])
  // The first base64url characters hold byte 0, and with it the mode.
  const first = fromBase64UrlPrefix(match[2]!.slice(0, 4))[0]
  const encrypted = match[2]!.length >= 2 && first !== undefined && modeOf(first, version) === MODE_ENCRYPTED
  return { version, encrypted }
}

/**
 * Decodes a fragment (with or without `#`). Never throws: a damaged, truncated, oversized or tampered link, a
 * missing or wrong passphrase, or a link from a newer version gives `{ error }` in plain words.
 *
 * @example
 * const opened = await decodeShareLink(location.hash, { passphrase })
 * if ('error' in opened) show(opened.error) else load(opened.source, opened.streamKey, opened.k)
 */
export async function decodeShareLink(
  fragment: string,
  options: DecodeOptions = {},
): Promise<DecodedLink | LinkError> {
  try {
    return await decode(fragment.trim(), options)
  } catch (error) {
    // Every expected failure is handled below; this is the net for the unexpected.
    return {
      error: `the link could not be opened: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

async function decode(fragment: string, options: DecodeOptions): Promise<DecodedLink | LinkError> {
  const match = /^#?v(\d+)\.(.*)$/s.exec(fragment)
  if (match === null)
    return { error: `this is not a Chunkscope share link (it should start with #${SHARE_PREFIX})` }
  const version = Number(match[1])
  if (version < 1 || version > SHARE_VERSION || !Number.isInteger(version)) {
    return {
      error: `this link uses share format v${match[1]}, which this version of Chunkscope does not know; open it with a newer version`,
    }
  }
  const body = match[2]!
  const missing = missingPlatform(inspectShareLink(fragment)?.encrypted === true, version)
  if (missing !== null) return { error: missing }
  if (!/^[A-Za-z0-9_-]*$/.test(body)) {
    const bad = /[^A-Za-z0-9_-]/.exec(body)!
    return {
      error: `the link is damaged: it contains ${JSON.stringify(bad[0])} at character ${bad.index + 4}, which a link never holds (was it edited or wrapped?)`,
    }
  }
  if (body.length % 4 === 1)
    return { error: 'the link is damaged: it was cut short (its length is impossible)' }
  const frame = fromBase64Url(body)
  const header = headerOf(version)
  const encryptedHeader = header + 4 + SALT + IV
  if (frame.length < header + 1)
    return { error: 'the link is damaged: it was cut short (too short to hold a stream)' }
  const mode = modeOf(frame[0]!, version)
  if (mode !== MODE_PLAIN && mode !== MODE_ENCRYPTED)
    return { error: 'the link is damaged: its first characters were changed' }
  if (!checkMatches(frame, version)) {
    return {
      error: 'the link is damaged: its checksum does not match, so it was cut short or changed on the way',
    }
  }
  let compressed: Uint8Array<ArrayBuffer>
  if (mode === MODE_PLAIN) compressed = frame.subarray(header)
  else {
    if (frame.length < encryptedHeader + 16)
      return { error: 'the link is damaged: too short to hold encrypted data' }
    if (options.passphrase === undefined)
      return { error: 'this link is encrypted: enter its passphrase', needsPassphrase: true }
    const iterations = new DataView(frame.buffer, frame.byteOffset).getUint32(header)
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS)
      return {
        error: `the link asks for ${iterations} key-derivation iterations, outside the accepted ${MIN_ITERATIONS}–${MAX_ITERATIONS}`,
      }
    const head = frame.slice(0, encryptedHeader)
    const salt = frame.slice(header + 4, header + 4 + SALT)
    const iv = frame.slice(header + 4 + SALT, encryptedHeader)
    const key = await deriveKey(options.passphrase, salt, iterations, 'decrypt')
    try {
      compressed = new Uint8Array(
        await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv, additionalData: aad(head, version) },
          key,
          frame.slice(encryptedHeader),
        ),
      )
    } catch {
      return {
        error: 'wrong passphrase: the link is intact but does not decrypt with it',
        wrongPassphrase: true,
      }
    }
  }
  const read = version === 1 ? await readV1(compressed, options) : readColumnar(version, compressed, options)
  if ('error' in read) return read
  const value = read.value
  if (isRecord(value) && typeof value['v'] === 'number' && value['v'] !== 1) {
    return {
      error: `the link's payload is version ${value['v']}, which this version of Chunkscope does not know`,
    }
  }
  const opened = openSharePayload(value)
  if ('error' in opened) return { error: `the link cannot be opened: ${opened.error}` }
  return { ...opened, version, encrypted: mode === MODE_ENCRYPTED }
}

function tooLarge(max: number): LinkError {
  return {
    error: `the link's content is larger than ${formatBytes(max)} once decompressed; it was refused so it cannot exhaust memory`,
  }
}

function readColumnar(
  version: number,
  body: Uint8Array,
  options: DecodeOptions,
): { value: unknown } | LinkError {
  const max = options.maxBytes ?? DEFAULT_MAX_BYTES
  const read = version === 2 ? decodeBody(body, max) : decodeBodyV3(body, max, version as 3 | 4 | 5)
  return 'tooLarge' in read ? tooLarge(max) : read
}

/** A v1 body: deflate-raw of the payload's JSON. */
async function readV1(
  compressed: Uint8Array<ArrayBuffer>,
  options: DecodeOptions,
): Promise<{ value: unknown } | LinkError> {
  const inflated = await inflate(compressed, options.maxBytes ?? DEFAULT_MAX_BYTES)
  if ('error' in inflated) return inflated
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes)
  } catch {
    return { error: 'the link is damaged: its content is not valid UTF-8' }
  }
  // The payload wraps its records a few levels deep; past the readers' own limit it was not made by Chunkscope
  // and would overflow whatever walks it next (limits.ts).
  const parsed = parseJson(text, MAX_JSON_DEPTH + 8)
  if (!parsed.ok)
    return {
      error: parsed.deep
        ? `the link's content is ${parsed.reason}; it was refused`
        : 'the link is damaged: its content is not valid JSON',
    }
  return { value: parsed.value }
}

/** Why this page cannot encode or decode links (an old browser, or encryption on a page that is not secure). */
export function missingPlatform(encrypted: boolean, version = SHARE_VERSION): string | null {
  // Only v1 bodies inflate through the platform; v2 and v3 use fflate (a dictionary, docs/protocol.md §14).
  if (version === 1 && typeof DecompressionStream !== 'function')
    return 'this browser cannot open v1 share links (it lacks DecompressionStream); use a current browser'
  if (encrypted && globalThis.crypto?.subtle === undefined)
    return 'encrypted links need a secure page: open Chunkscope over https or on localhost'
  return null
}

async function deriveKey(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  use: 'encrypt' | 'decrypt',
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(passphrase),
    'PBKDF2',
    false,
    ['deriveKey'],
  )
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', salt, iterations, hash: 'SHA-256' },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    [use],
  )
}

/** Streams the decompression and stops as soon as the output passes `max` bytes. */
async function inflate(
  bytes: Uint8Array<ArrayBuffer>,
  max: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer> } | LinkError> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))
  try {
    const read = await readCapped(stream, max)
    return 'bytes' in read ? read : tooLarge(max)
  } catch {
    return { error: 'the link is damaged: its compressed data is corrupt' }
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function fromBase64UrlPrefix(text: string): Uint8Array {
  try {
    return fromBase64Url(text.length % 4 === 1 ? text.slice(0, -1) : text)
  } catch {
    return new Uint8Array(0)
  }
}
