// The preset deflate dictionary of v2 share links (docs/protocol.md §14). A link is small, so deflate never sees
// the protocol's own words twice inside one; with them preset, a key or a common value costs a back-reference.
// The words come from the protocol (docs/protocol.md §1, §6, §7) and the payload (payload.ts, attemptContext.ts),
// plus the JSON and shell a tool call's arguments usually hold. Deflate reaches closer strings more cheaply, so
// the most frequent come last.
//
// NEVER change this text: every v2 link ever made needs exactly these bytes to open. A different dictionary is
// a new link version.

const WORDS = [
  // Session logs (whole-session links): events and packed rows.
  '{"type":"session","version":0,"id":"","createdAt":,"cwd":"',
  '{"type":"command/run","seq":,"time":,"data":{"commandId":"cmd-',
  '{"type":"permission/preset"{"type":"sandbox/mode"{"type":"approval/policy"',
  '{"type":"turn/start","seq":,"time":,"data":{"turn":1,"trigger":{"kind":"message","source":{"kind":"user"',
  '{"type":"user/message","seq":,"time":,"data":{"content":[{"type":"text","text":"',
  '"role":"user","surfaceOp":"append"}',
  '{"type":"session/title","data":{"title":"","messageSeqs":[',
  '{"type":"request/header","data":{"header":{"config":{"provider":"deepseek","model":"deepseek-',
  '"reasoningEffort":"high"},"system":"","tools":"',
  '{"type":"tool/result","seq":,"time":,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"',
  '"content":[{"type":"tool-result","toolCallId":"call_00_","isError":false',
  '{"type":"approval/asked"{"type":"approval/decided","outcome":"allowed-once"',
  '{"type":"llm/retry-started"{"type":"turn/end","seq":,"time":,"data":{"turn":1',
  '{"type":"step/end","seq":,"time":,"data":{"turn":1,"step":1}}',
  '{"type":"step/start","seq":,"time":,"data":{"turn":1,"step":1}}',
  '{"type":"tool/call","seq":,"time":,"data":{"turn":1,"step":1,"callId":"call_00_","name":"bash","arguments":"',
  '{"type":"assistant/message","seq":,"time":,"data":{"turn":1,"step":1,"message":{"role":"assistant","content":[',
  '"sourceEventSeqs":[',
  '{"type":"tool-call-chunks","seq0":,"time0":,"data":{"turn":1,"step":1,"index":1,"dt":[],"texts":["',
  '{"type":"reasoning-chunks","seq0":,"time0":,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["',
  '{"type":"text-chunks","seq0":,"time0":,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["',
  '{"type":"assistant/chunk","seq":,"time":,"data":{"turn":1,"step":1,"chunk":',
  // Tool-call arguments (JSON text).
  '{\\"command\\": \\"{\\"description\\": \\"{\\"path\\": \\"{\\"file_path\\": \\"{\\"content\\": \\"\\", \\"',
  '{"command": "{"description": "{"path": "{"file_path": "{"content": "{"query": "", "',
  // The payload around the stream.
  '{"v":1,"name":".jsonl","source":{"kind":"session","records":[',
  '"redacted":{"text":true,"arguments":true,"events":true}',
  '"diagnostics":[{"line":,"severity":"error","message":"line : corrupt committed data: ',
  '{"line":,"severity":"warning","message":"line : seq gap: expected , got ',
  '"window":{"from":,"to":,"total":,"state":{"partials":[[0,{"blockType":"text","text":"\u007f","toolCallArguments":""',
  ',"toolCallId":"\u007f","toolCallName":"',
  '"built":[0],"end":{"partials":[[0,{"blockType":"reasoning","text":"\u007f","toolCallArguments":""',
  '"endBuilt":[0],"findings":[{"rule":"","severity":"info","seq":,"message":"\u007f","pos":',
  '"endFrom":0,"lastSeq":,"divergence":{"pos":,"seq":,"block":0,"field":"text","cause":{"kind":"seq-gap","missing":[',
  // Chunks that travel whole (usage, finish, anything unusual) and recorded messages.
  '{"type":"block-start","index":0,"blockType":"text"}',
  '{"type":"block-end","index":1,"block":{"type":"tool-call","id":"call_00_\u007f","name":"bash","arguments":"\u007f"}}',
  '{"type":"block-end","index":0,"block":{"type":"text","text":"\u007f"}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"',
  '"replayState":{"response":{"kind":"pi-ai","version":2,"api":"openai-completions","provider":"',
  '{"type":"finish","reason":{"kind":"max-tokens"}}{"type":"finish","reason":{"kind":"stop"}}',
  '{"type":"finish","reason":{"kind":"tool-calls"}}',
  '{"type":"usage","usage":{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}}',
  '"attempt":{"turn":1,"step":1,"attempt":1,"kind":"first","recorded":{"seq":,"interrupted":false,',
  '"content":[{"type":"reasoning","text":"\u007f"},{"type":"tool-call","id":"call_00_\u007f","name":"',
  '"matches":true,"shape":"current","citation":{"missing":[],"foreign":[],"uncited":[]}}}',
  '[{"v":1,"name":"\u007f","source":{"kind":"chunks"},"stream":"t1.s1.a1","k":0',
]

export const SHARE_DICTIONARY: Uint8Array = new TextEncoder().encode(WORDS.join(''))
