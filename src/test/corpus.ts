import { readdirSync, readFileSync } from 'node:fs'

/**
 * The shared corpus of real harness logs (`../shared/corpus/dsh`, read-only), found from this file's location so it
 * also resolves in a clone at /tmp/x with /tmp/shared beside it. Tests only: library code never reads files.
 */
export const CORPUS_DIR = new URL('../../../shared/corpus/dsh/', import.meta.url)

/** Every `*.jsonl` in the corpus, sorted by name. */
export function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
}

export function readCorpus(name: string): string {
  return readFileSync(new URL(name, CORPUS_DIR), 'utf8')
}
