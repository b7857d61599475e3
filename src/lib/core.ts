// `chunkscope/core`: the harness-exact BlockAssembler, the replay engine, the stream checks and the session model
// (src/core/README.md). No React, DOM or Node APIs: it runs in Node ≥ 20, browsers and workers.
export { BlockAssembler, assembleOpen, malformation } from '../core/BlockAssembler'
export type {
  AssembledBlocks,
  AssemblerSnapshot,
  AssemblerState,
  PartialBlock,
} from '../core/BlockAssembler'
export { ReplayBuilder, ReplayEngine } from '../core/ReplayEngine'
export type { BlockFrame, BlockLife, ReplayFrame, ReplayOptions } from '../core/ReplayEngine'
export { AssemblyPass, analyzeStream, readAssembler } from '../core/analyzeStream'
export type { AssemblyRead, IgnoredChunk, StreamResult } from '../core/analyzeStream'
export { RULES, StreamChecker } from '../core/checks'
export type { Finding, RuleId, Severity } from '../core/checks'
export { EFFECT_KINDS, decodeEffect, encodeEffect } from '../core/effects'
export type { Effect, EffectKind } from '../core/effects'
export { CHUNK_TYPES, isStreamChunk } from '../core/protocol'
export type * from '../core/protocol'
export { buildSession, buildStreamSession, compareRecorded } from '../core/session'
export type * from '../core/session'
export { reportStream } from '../core/streamReport'
export type { StreamReport } from '../core/streamReport'
