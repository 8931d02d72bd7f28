import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Judge } from '../../src/scanner/engine/scan-report.types';
import { createJudge } from '../../src/scanner/judge/create-judge';
import type { JudgeOptions } from '../../src/scanner/judge/judge-options';

/**
 * A loopback fake of an LLM provider speaking two wire formats with scripted replies:
 * OpenAI chat completions (`POST /v1/chat/completions`) and Anthropic Messages (`POST /v1/messages`).
 * Tests drive the real HTTP judge providers against it; nothing leaves 127.0.0.1.
 */

export type Wire = 'openai' | 'anthropic';

export type ScriptedReply =
  /** A normal completion whose assistant text is `content` (objects are JSON-encoded). */
  | { kind: 'content'; content: unknown; finishReason?: string }
  /** The model refuses (OpenAI `message.refusal`, Anthropic `stop_reason: "refusal"`). */
  | { kind: 'refusal' }
  /** A raw HTTP answer, e.g. 429 or 500, with a provider-style error body. */
  | { kind: 'http'; status: number; body?: unknown }
  /** Waits `ms` before answering with `then` (default: a benign verdict). */
  | { kind: 'delay'; ms: number; then?: ScriptedReply };

export interface RecordedRequest {
  wire: Wire;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type ReplyHandler = (req: RecordedRequest) => ScriptedReply;

export const benignVerdict = { assessed_intent: 'benign', confidence: 'high', findings: [], demote_rule_ids: [] };

/** The API key the fake-backed judges send; tests assert it arrives in the provider's header. */
export const FAKE_JUDGE_API_KEY = 'test-key-not-secret';

/** A real HTTP judge of the given wire format pointed at this fake server. */
export function judgeAgainst(server: FakeLlmServer, wire: Wire, over: Partial<JudgeOptions> = {}): Judge {
  return createJudge({
    provider: wire,
    baseUrl: wire === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
    model: 'fake-model',
    apiKey: FAKE_JUDGE_API_KEY,
    timeoutMs: 5000,
    ...over,
  });
}

export class FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedReply[] = [];
  private handler: ReplyHandler = () => ({ kind: 'content', content: benignVerdict });
  private active = 0;
  /** Highest number of requests the server was handling at once. */
  peakConcurrency = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeLlmServer> {
    const server = createServer();
    const fake = new FakeLlmServer(server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => fake.onRequest(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  private get origin(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** JUDGE_BASE_URL for `openai` (includes /v1, as for OpenAI, vLLM and Ollama). */
  get openaiBaseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** JUDGE_BASE_URL for `anthropic`. */
  get anthropicBaseUrl(): string {
    return this.origin;
  }

  /** Replies used in order, before the handler. */
  enqueue(...replies: ScriptedReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Reply for any request once the queue is empty. */
  onRequestReply(handler: ReplyHandler): this {
    this.handler = handler;
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.peakConcurrency = 0;
    this.handler = () => ({ kind: 'content', content: benignVerdict });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const wire: Wire | null = path.endsWith('/chat/completions') ? 'openai' : path.endsWith('/messages') ? 'anthropic' : null;
      if (req.method !== 'POST' || !wire) {
        res.writeHead(404).end();
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
        return;
      }
      const recorded: RecordedRequest = { wire, path, headers: req.headers, body };
      this.requests.push(recorded);
      this.active++;
      this.peakConcurrency = Math.max(this.peakConcurrency, this.active);
      let finished = false;
      const done = () => {
        if (!finished) {
          finished = true;
          this.active--;
        }
      };
      res.on('close', done);
      const reply = this.queue.shift() ?? this.handler(recorded);
      this.answer(wire, reply, res, done);
    });
  }

  private answer(wire: Wire, reply: ScriptedReply, res: ServerResponse, done: () => void): void {
    if (res.destroyed) return done();
    switch (reply.kind) {
      case 'delay': {
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.answer(wire, reply.then ?? { kind: 'content', content: benignVerdict }, res, done);
        }, reply.ms);
        this.timers.add(t);
        return;
      }
      case 'http':
        return send(res, reply.status, reply.body ?? errorBody(wire, reply.status));
      case 'refusal':
        return send(
          res,
          200,
          wire === 'openai' ? completion({ role: 'assistant', content: null, refusal: 'I cannot help with that.' }, 'stop') : message([], 'refusal'),
        );
      case 'content': {
        const text = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
        return send(
          res,
          200,
          wire === 'openai'
            ? completion({ role: 'assistant', content: text, refusal: null }, reply.finishReason ?? 'stop')
            : message([{ type: 'text', text }], reply.finishReason ?? 'end_turn'),
        );
      }
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function message(content: { type: string; text: string }[], stopReason: string) {
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: 'fake-model',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

function errorBody(wire: Wire, status: number): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return wire === 'openai' ? { error: { message: `fake ${status}`, type, code: null } } : { type: 'error', error: { type, message: `fake ${status}` } };
}

/** The user message (file prompt) of a recorded request, for either wire format. */
export function userMessageOf(req: RecordedRequest): string {
  const messages = req.body.messages as { role: string; content: string }[];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** The system prompt of a recorded request, for either wire format. */
export function systemPromptOf(req: RecordedRequest): string {
  if (req.wire === 'anthropic') return req.body.system as string;
  const messages = req.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === 'system')?.content ?? '';
}
