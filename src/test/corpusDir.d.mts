/** The corpus folder (`fixtures/dsh/`), as a `file:` URL ending in `/`. */
export const CORPUS_DIR: URL
