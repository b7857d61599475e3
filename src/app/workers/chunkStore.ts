// The chunk store lives in core (core/chunkStore.ts) so a reader can hand back a source held as columns.
export * from '../../core/chunkStore'
