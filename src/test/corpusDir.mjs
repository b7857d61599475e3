// The one definition of where the corpus of real harness logs lives (`fixtures/dsh`, MIT, see its SOURCES.md),
// found from this file's location so a clone anywhere finds it. Plain JavaScript so that Node scripts
// (scripts/make-fixtures.mjs), Vitest and Playwright all import the same constant.

/** The corpus folder, as a `file:` URL ending in `/`. */
export const CORPUS_DIR = new URL('../../fixtures/dsh/', import.meta.url)
