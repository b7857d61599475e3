import { readdirSync, readFileSync } from 'node:fs'

/**
 * The corpus of real harness logs (`fixtures/dsh`, MIT, see its SOURCES.md), found from this file's location so a
 * clone anywhere finds it. Tests only: library code never reads files.
 */
export const CORPUS_DIR = new URL('../../fixtures/dsh/', import.meta.url)

/** Every `*.jsonl` in the corpus, sorted by name. */
export function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
}

export function readCorpus(name: string): string {
  return readFileSync(new URL(name, CORPUS_DIR), 'utf8')
}
