// The column batches live in core (core/columns.ts, core/columnWriter.ts) so the readers can write them while they
// parse.
export * from '../../core/columns'
export * from '../../core/columnWriter'
