// `chunkscope/tap`: wrap an adapter's stream and get a harness session log of it (Node ≥ 20, no dependencies).
export { tap, failureOf } from './tap'
export type { TapOptions } from './tap'
export { startTapFeed } from './tapFeed'
export type { TapFeed } from './tapFeed'
