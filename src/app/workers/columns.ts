// The column batches live in core (core/columns.ts) so the readers can write them while they parse.
export * from '../../core/columns'
