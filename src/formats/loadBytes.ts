import type { SqlJsStatic } from 'sql.js'
import { invalidUtf8 } from './containers'
import { loadSource } from './load'
import { MAX_DECOMPRESSED_BYTES, OutputBudget } from './limits'
import { BYTES_FORMATS } from './registry'
import type { Diagnostic, LoadedSource } from './types'
import { decodeUtf8 } from './utf8'

export type LoadBytesOptions = {
  /**
   * Starts sql.js (SQLite compiled to WebAssembly) for a SQLite session store. The caller passes it because only the
   * caller knows where the .wasm file is (a Vite asset URL in the worker, a path under node_modules in the CLI).
   * Without it a SQLite file is recognised but not read, with one error saying so.
   */
  readonly sqlJs?: () => Promise<SqlJsStatic>
  /** Cap on everything the file's containers decompress to; {@link MAX_DECOMPRESSED_BYTES} by default. */
  readonly maxDecompressedBytes?: number
}

/**
 * The byte-level entry point: recognises the harness's binary containers from their magic bytes (the registry's
 * `bytes` formats: Zstandard `28 B5 2F FD`, ZIP `50 4B 03 04`, `SQLite format 3\0`) and otherwise decodes UTF-8
 * (reporting bytes that are not) and hands the text to loadSource. Lenient and total like loadSource: it never rejects for bad input.
 *
 * @example
 * const source = await loadBytes(new Uint8Array(await file.arrayBuffer()), file.name, { sqlJs })
 * source.format // 'dsh-session-zstd'
 */
export async function loadBytes(
  bytes: Uint8Array,
  name?: string,
  options: LoadBytesOptions = {},
): Promise<LoadedSource> {
  const named = name !== undefined ? { name } : {}
  const budget = new OutputBudget(options.maxDecompressedBytes ?? MAX_DECOMPRESSED_BYTES)
  try {
    const container = BYTES_FORMATS.find((format) => format.sniff(bytes))
    if (container === undefined) return loadText(bytes, name)
    const { unrecognised, ...read } = await container.read(bytes, {
      loadText: (text, entry) => loadSource(text, entry),
      budget,
      ...(options.sqlJs !== undefined ? { sqlJs: options.sqlJs } : {}),
    })
    return { format: unrecognised === true ? null : container.id, ...named, ...read }
  } catch (error) {
    // The readers are written not to throw; if one does, the user still gets a message instead of a blank page.
    const reason = error instanceof Error ? error.message : String(error)
    return {
      format: null,
      ...named,
      sessions: [],
      diagnostics: [{ severity: 'error', message: `internal error: ${reason}` }],
    }
  }
}

function loadText(bytes: Uint8Array, name: string | undefined): LoadedSource {
  const { text, diagnostics } = decodeTextInput(bytes)
  return withDiagnostics(loadSource(text, name), diagnostics)
}

/** True when the bytes open one of the binary containers that {@link loadBytes} reads itself. */
export function isBinaryContainer(bytes: Uint8Array): boolean {
  return BYTES_FORMATS.some((format) => format.sniff(bytes))
}

/**
 * A text input's bytes decoded as UTF-8, with a diagnostic for the first invalid byte. A caller holding a large
 * file decodes with this, lets go of the bytes and then calls loadSource, so the bytes and the parsed events are
 * never alive at the same time; {@link withDiagnostics} adds the decoding diagnostics to the result.
 */
export function decodeTextInput(bytes: Uint8Array): { text: string; diagnostics: Diagnostic[] } {
  const { text, invalidAt } = decodeUtf8(bytes)
  return { text, diagnostics: invalidAt === -1 ? [] : [invalidUtf8(invalidAt, 'the file')] }
}

export function withDiagnostics(source: LoadedSource, diagnostics: Diagnostic[]): LoadedSource {
  return diagnostics.length === 0
    ? source
    : { ...source, diagnostics: [...diagnostics, ...source.diagnostics] }
}
