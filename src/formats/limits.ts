/**
 * The limits every reader applies to hostile input, in one place so the README, the diagnostics and the tests
 * agree. A file past a limit is never refused whole: what fits is kept and a diagnostic names the limit and where
 * the input crossed it.
 */

/**
 * Most bytes the compressed containers of one file (zstd frames, zip entries, zstd BLOBs of a SQLite store) may
 * decompress to, all together. A share link's payload has its own, smaller cap (share/shareLink.ts); a file gets
 * more room because real harness logs are larger, but a 12 KB frame must not become gigabytes.
 */
export const MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024

/**
 * Deepest JSON nesting a reader accepts in one record. Real records nest a dozen levels; past this the value would
 * overflow the stack of whatever walks it next (JSON.stringify, structuredClone in postMessage, a recursive diff).
 */
export const MAX_JSON_DEPTH = 512

/** What is left of a file's decompression allowance; shared by every frame and entry of that file. */
export class OutputBudget {
  private used = 0

  constructor(readonly limit: number = MAX_DECOMPRESSED_BYTES) {}

  get left(): number {
    return Math.max(0, this.limit - this.used)
  }

  /** Counts `bytes` as decompressed. */
  spend(bytes: number): void {
    this.used += bytes
  }
}

/** `256 MiB`, `64 KiB`, `12 bytes`: a limit or size as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`
  return `${bytes} byte${bytes === 1 ? '' : 's'}`
}
