// The primer of v3 share links (docs/protocol.md §14): text of the kinds a link carries, which the byte model
// (textModel.ts) reads before a link's first byte, so that a short link is already predicted like its content.
// Written for Chunkscope (no text from the corpus or elsewhere): an assistant's reasoning and replies in English,
// Chinese and Japanese, Markdown, code and shell, tool-call arguments, the payload's JSON and the harness's
// diagnostics. The model weighs recent bytes most, so the payload's own shapes come last.
//
// NEVER change this text: every v3 link ever made needs exactly these bytes to open. A different primer is a new
// link version.

const PROSE = [
  'The user wants me to look at the failing test and fix it. Let me start by reading the file to understand ',
  'what the function does, then I will run the tests to see the error. I should check whether the change ',
  'breaks anything else before I reply.\n\n',
  "I'll read the configuration first. The error says the module cannot be found, so the path is probably ",
  'wrong. Let me search the repository for where it is imported.\n\n',
  'Okay, so the issue is that the value is undefined when the list is empty. I need to handle that case and ',
  'return an empty result instead of throwing. Now let me write the fix and run the tests again.\n\n',
  'The tests pass now. Here is a summary of what I changed:\n\n',
  '- **Fixed** the empty-list case in `parse()`: it now returns `[]`.\n',
  '- **Added** a test for it in `tests/parse.test.ts`.\n',
  '- Updated the README with the new option.\n\n',
  'Let me know if you want me to make any other changes. The user asked me to reply with exactly one word, ',
  'so I should not call any tools and just answer. I will now call the tool with the exact arguments given. ',
  'First, I need to check the current directory and list the files. Then I will create the new file with ',
  'the content the user provided, and finally verify that it works as expected.\n\n',
  'Done. The build succeeded and all checks are green.\n\n',
  '## Summary\n\n1. Read the file\n2. Found the problem\n3. Fixed it and ran the tests\n\n',
  '我来帮你看一下这个问题。首先，让我读取相关的文件，了解代码的结构。',
  '用户希望我运行测试并修复失败的用例。我需要先查看错误信息，然后修改代码。',
  '好的，我已经完成了修改。以下是总结：\n\n- 修复了空列表的问题\n- 添加了测试\n\n',
  '所有测试都通过了。如果还有其他需要，请告诉我。现在我来创建文件并写入内容。',
  'ファイルを確認します。まず、テストを実行して、エラーの内容を見てみましょう。',
  'ユーザーはこの関数の修正を求めています。変更が完了しました。すべてのテストが成功しました。\n\n',
]

const CODE = [
  '```ts\nexport function parse(input: string): string[] {\n  if (input.length === 0) return []\n',
  '  const lines = input.split("\\n")\n  return lines.map((line) => line.trim()).filter(Boolean)\n}\n```\n\n',
  '```python\ndef main():\n    import os\n    for name in os.listdir("."):\n        print(name)\n\n',
  'if __name__ == "__main__":\n    main()\n```\n\n',
  '```bash\nnpm install && npm test\ngit status\ngit diff --stat\nls -la src/\ncat package.json\n```\n\n',
  'import { describe, expect, it } from "vitest"\nconst result = await fetch(url, { method: "POST" })\n',
  'console.log(JSON.stringify(data, null, 2))\nreturn { ok: true, value }\n',
]

const ARGUMENTS = [
  '{"command": "ls -la", "description": "List the files in the current directory"}',
  '{"command": "npm test", "timeout": 120000}',
  '{"command": "git status && git diff", "description": "Show the working tree status"}',
  '{"path": "src/index.ts"}{"file_path": "/home/user/project/src/main.ts"}',
  '{"file_path": "README.md", "content": "# Project\\n\\nA short description.\\n"}',
  '{"file_path": "src/app.ts", "old_string": "const a = 1", "new_string": "const a = 2"}',
  '{"pattern": "TODO", "path": "src", "glob": "*.ts"}{"query": "how to parse JSON in TypeScript"}',
  '{"url": "https://example.com/docs", "prompt": "Summarize the page"}',
  '{"todos": [{"content": "Run the tests", "status": "in_progress"}]}',
  '{"what": "all"}{"id": "plugin-1"}{"code": "export default {}"}{}',
  '{"command":["pwsh","-NoProfile","-Command","Get-ChildItem"],"workdir":"C:\\\\Users\\\\dev"}',
]

const PAYLOAD = [
  'line 12: seq gap: expected 6, got 9',
  'line 40: corrupt committed data: the log breaks here (a seq gap) but a turn/end follows on line 52',
  'line 8: assistant/message seq 20 cites 4 seqs that are not in the log (6, 7, 8, 9)',
  'line 3: torn row: the line is not valid JSON',
  'snapshot request exceeded the model context window',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"request failed","code":"CONTEXT_WINDOW_EXCEEDED"}}}',
  '{"type":"finish","reason":{"kind":"max-tokens"}}',
  '{"type":"finish","reason":{"kind":"tool-calls"}}',
  '{"type":"usage","usage":{"inputTokens":12043,"outputTokens":318,"cacheReadTokens":11520,"reasoningTokens":96}}',
  '{"type":"usage","usage":{"inputTokens":2210,"outputTokens":45,"cacheReadTokens":0,"cacheWriteTokens":0}}',
  '{"type":"finish","reason":{"kind":"stop"}}',
  '{"type":"block-end","index":0,"block":{"type":"text","text":"\u007f"}}',
  '{"type":"block-end","index":1,"block":{"type":"tool-call","id":"call_00_\u007f","name":"bash","arguments":"\u007f"}}',
  '"window":{"from":40,"to":46,"total":49,"state":{"partials":[[0,{"blockType":"text","text":"\u007f",',
  '"toolCallArguments":"","toolCallId":"\u007f","toolCallName":"\u007f"}]]},"built":[0],"end":{"partials":',
  '[[0,{"blockType":"reasoning","text":"\u007f","toolCallArguments":""}]]},"endBuilt":[0]}',
  '"redacted":{"text":true,"arguments":true,"events":true}',
  '"diagnostics":[{"line":8,"severity":"warning","message":"\u007f"},{"line":9,"severity":"error","message":"\u007f"}]',
  '"recorded":{"seq":103,"interrupted":false,"content":[{"type":"reasoning","text":"\u007f"},',
  '{"type":"tool-call","id":"call_00_\u007f","name":"\u007f","arguments":"\u007f"}],"shape":"legacy",',
  '"citation":{"missing":"\u007f\u007f","foreign":[],"uncited":[]}}',
  '[{"v":1,"name":"agent-tool-turn-session.jsonl","source":{"kind":"chunks"},"stream":"t2.s1.a1","k":0,',
  '"attempt":{"turn":2,"step":1,"attempt":1,"kind":"first","recorded":{"seq":58,"interrupted":false,',
  '"matches":true,"shape":"current","citation":{"missing":[],"foreign":[],"uncited":[]}}}},',
  '[{"type":"usage","usage":{"inputTokens":5310,"outputTokens":72,"cacheReadTokens":4864,"reasoningTokens":40}},',
  '{"type":"finish","reason":{"kind":"tool-calls"}}],["call_00_\u007f","bash"]]',
  '[{"v":1,"name":"\u007f","source":{"kind":"chunks"},"stream":"t1.s1.a1","k":0,"attempt":{"turn":1,',
  '"step":1,"attempt":1,"kind":"first","recorded":{"seq":37,"interrupted":false,"matches":true,',
  '"shape":"current","citation":{"missing":[],"foreign":[],"uncited":[]}}}},[{"type":"usage","usage":',
  '{"inputTokens":3210,"outputTokens":25,"cacheReadTokens":0,"reasoningTokens":18}},{"type":"finish",',
  '"reason":{"kind":"stop"}}],[]]',
]

// v4 reads the same primer, then this: the protocol's own shapes and values (docs/protocol.md §1, §9: the chunk
// types, every failure code, the finish messages Chunkscope's adapters write, usage as providers report it, the
// replay memo's keys), the reader's diagnostics, the words a harness log's name is made of, and the skeletons of
// attempt links (an attempt with no text at all is little else). Written for Chunkscope, none of it taken from the
// corpus. Frozen like the rest: a change is a new link version.
const PROTOCOL = [
  'model returned a completed response with no content',
  'SSE stream ended without [DONE]',
  'model stopped: content_filter',
  'DeepSeek API error (HTTP 500)',
  'DeepSeek API error (HTTP 429): Rate limit reached for requests',
  'the model context window was exceeded; compact the conversation and try again',
  'request aborted by the user',
  'stream closed before the response finished',
  'An unknown error occurred',
  'line 14: seq gap: expected 21, got 40',
  'line 22: corrupt committed data: the log breaks here (a seq gap) but a turn/end follows on line 30; ',
  'the 12 events read after the break are shown anyway',
  'line 9: assistant/message seq 75 cites 18 seqs that are not in the log (22, 23, 24, 25, … 14 more)',
  'agent-session.jsonl tool-call-retry-session.jsonl headless-run-session.jsonl ',
  'web-chat-turn-session.jsonl reasoning-max-tokens-session.jsonl subagent-error-finish-session.jsonl ',
  'acp-approval-cancel-session.jsonl compaction-continue-session.jsonl parallel-tools-session.jsonl ',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"EMPTY_RESPONSE"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"STREAM_CLOSED"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"RATE_LIMIT","status":429}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"SERVER","status":500}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"AUTH"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"TIMEOUT"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"TRANSPORT"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"ABORTED"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"MALFORMED_RESPONSE"}}}',
  '{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"UNKNOWN"}}}',
  'QUOTA INVALID_REQUEST HTTP_503 UNSUPPORTED_CONTENT UNSUPPORTED_OPTION MISSING_CREDENTIAL PROVIDER_HTTP_ERROR ',
  '{"type":"finish","reason":{"kind":"max-tokens"},"replayState":{"response":{"kind":"pi-ai","version":2,',
  '"api":"openai-completions","provider":"deepseek","model":"deepseek-chat","stopReason":"length"},',
  '"blocks":[{"type":"reasoning"},{"type":"text"},{"type":"tool-call"}]}}',
  '{"type":"block-end","index":0,"block":{"type":"text","text":""}}',
  '{"type":"block-end","index":0,"block":{"type":"reasoning","text":""}}',
  '{"type":"block-end","index":1,"block":{"type":"tool-call","id":"\u007f","name":"read_file","arguments":""}}',
  '{"type":"usage","usage":{"inputTokens":0,"outputTokens":0}}',
  '{"type":"usage","usage":{"inputTokens":14,"outputTokens":2}}',
  '{"type":"usage","usage":{"inputTokens":486,"outputTokens":131,"cacheReadTokens":6400,"reasoningTokens":57}}',
  '{"type":"finish","reason":{"kind":"stop"}}],[]]',
  '[{"v":1,"name":"\u007f","source":{"kind":"chunks"},"stream":"t1.s1.a2","k":0,"attempt":{"kind":"retry",',
  '"recorded":{"interrupted":false,"matches":true,"shape":"current","citation":{"missing":[],"foreign":[],',
  '"uncited":[]}}}},[{"type":"usage","usage":{"inputTokens":20,"outputTokens":4}},{"type":"finish","reason":',
  '{"kind":"stop"}}],[],3]',
  '[{"v":1,"name":"\u007f","source":{"kind":"chunks"},"stream":"t2.s2.a1","k":0,"attempt":{"kind":"first"}},',
  '[{"type":"finish","reason":{"kind":"error","failure":{"message":"\u007f","code":"TIMEOUT"}}}],[],1]',
  '[{"v":1,"name":"\u007f","source":{"kind":"chunks"},"stream":"t1.s1.a1","k":0,"attempt":{"kind":"first"}},',
  '[{"type":"usage","usage":{"inputTokens":0,"outputTokens":0}},{"type":"finish","reason":{"kind":"error",',
  '"failure":{"message":"\u007f","code":"EMPTY_RESPONSE"}}}],[],1]',
  '[{"v":1,"name":"\u007f","source":{"kind":"chunks"},"stream":"t1.s2.a1","k":0,"attempt":{"kind":"first",',
  '"recorded":{"interrupted":false,"matches":true,"shape":"current","citation":{"missing":[],"foreign":[],',
  '"uncited":[]}}}},[{"type":"usage","usage":{"inputTokens":231,"outputTokens":88,"cacheReadTokens":4096,',
  '"reasoningTokens":31}},{"type":"finish","reason":{"kind":"tool-calls"}}],["\u007f","\u007f"],3]',
]

/** The prose and the arguments alone: the chunk numbers' priming stream is cut from them (numberColumnsV3.ts). */
export const PRIMER_PROSE = PROSE.join('')
export const PRIMER_ARGUMENTS = ARGUMENTS.join('')

export const SHARE_PRIMER: Uint8Array = new TextEncoder().encode(
  [...PROSE, ...CODE, ...ARGUMENTS, ...PAYLOAD].join(''),
)

/** v4's primer: v3's, then the protocol's own shapes and values. */
export const SHARE_PRIMER_V4: Uint8Array = new TextEncoder().encode(
  [...PROSE, ...CODE, ...ARGUMENTS, ...PAYLOAD, ...PROTOCOL].join(''),
)
