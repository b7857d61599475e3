import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CORPUS_DIR } from './corpusDir.mjs'

/**
 * The corpus of real harness logs (`fixtures/dsh`, MIT, see its SOURCES.md). Every test reaches it through
 * `CORPUS_DIR` (defined once in corpusDir.mjs, which Node scripts import too). Tests only: library code never
 * reads files.
 */
export { CORPUS_DIR }

/** A corpus file's path on disk, for code that takes a path (the CLI, Playwright's file chooser). */
export function corpusPath(name: string): string {
  return fileURLToPath(new URL(name, CORPUS_DIR))
}

/** Every `*.jsonl` in the corpus, sorted by name. */
export function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
}

export function readCorpus(name: string): string {
  return readFileSync(new URL(name, CORPUS_DIR), 'utf8')
}
