import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { createProviderRegistry, effectiveBaseUrl, notConfiguredReason, splitModelId } from '../../src/reviews/providers/index.js';
import { fromSdkError } from '../../src/reviews/providers/provider.js';
import { reviewReplySchema } from '../../src/reviews/review-reply.js';
import { startFakeAnthropic, startFakeOpenAI, type FakeProvider } from '../helpers/fake-providers.js';

const dims = [
  { name: 'impact', weight: 2 },
  { name: 'craft', weight: 1 },
];
const call = (model: string) => ({ model, system: 'sys', user: 'usr', schema: reviewReplySchema(dims), signal: new AbortController().signal });

describe('model identifiers', () => {
  it('split at the first slash; the provider is case-insensitive', () => {
    expect(splitModelId('openai/gpt-4o-mini')).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(splitModelId('Local/org/model:7b')).toEqual({ provider: 'local', model: 'org/model:7b' });
  });
  it('reach Ollama under /v1 when given its bare address; other base URLs are used as given', () => {
    const cfg = (name: string, baseUrl: string) => ({ name, kind: 'openai-compatible' as const, baseUrl, apiKey: undefined });
    expect(effectiveBaseUrl(cfg('ollama', 'http://localhost:11434'))).toBe('http://localhost:11434/v1');
    expect(effectiveBaseUrl(cfg('ollama', 'http://gpu.lan:11434/v1'))).toBe('http://gpu.lan:11434/v1');
    expect(effectiveBaseUrl(cfg('local', 'http://localhost:8000'))).toBe('http://localhost:8000');
  });
  it('explain how to configure a missing provider', () => {
    expect(notConfiguredReason('foo')).toBe('provider "foo" is not configured: set AI_PROVIDER_FOO_BASE_URL');
    expect(notConfiguredReason('my-llm')).toBe('provider "my-llm" is not configured: set AI_PROVIDER_MY_LLM_BASE_URL');
    expect(notConfiguredReason('openai')).toMatch(/OPENAI_API_KEY/);
    expect(notConfiguredReason('anthropic')).toMatch(/ANTHROPIC_API_KEY/);
    expect(notConfiguredReason('ollama')).toMatch(/OLLAMA_BASE_URL/);
  });
});

describe('providers against fake servers', () => {
  let oa: FakeProvider;
  let an: FakeProvider;
  let registry: ReturnType<typeof createProviderRegistry>;
  beforeAll(async () => {
    [oa, an] = await Promise.all([startFakeOpenAI(), startFakeAnthropic()]);
    registry = createProviderRegistry(
      loadConfig({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${oa.url}/v1`,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: an.url,
        AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/local/v1`,
        REVIEW_TIMEOUT_MS: '2000',
      }).ai,
    );
  });
  afterAll(async () => Promise.all([oa?.close(), an?.close()]));

  it('configures openai, anthropic and named OpenAI-compatible providers', () => {
    expect(registry.names().sort()).toEqual(['anthropic', 'local', 'openai']);
  });

  it('OpenAI: POST /chat/completions with a strict json_schema response format', async () => {
    oa.script('gpt-x', [{ kind: 'ok', scores: { impact: 8, craft: 6 } }]);
    const r = await registry.get('openai')!.review(call('gpt-x'));
    expect(JSON.parse(r.reply as string)).toEqual({ scores: { impact: 8, craft: 6 }, summary: 'A solid project.' });
    expect(r.inputTokens).toBeGreaterThan(0);
    expect(r.outputTokens).toBeGreaterThan(0);
    const sent = oa.callsFor('gpt-x')[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'hackathon_review', strict: true } });
    expect(sent.body.response_format.json_schema.schema.properties.scores.required).toEqual(['impact', 'craft']);
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'usr' },
    ]);
  });

  it('a named provider goes to its own base URL', async () => {
    await registry.get('local')!.review(call('llama-x'));
    expect(oa.callsFor('llama-x')[0]!.path).toBe('/local/v1/chat/completions');
  });

  it('Anthropic: POST /v1/messages forcing the review tool with the reply schema', async () => {
    an.script('claude-x', [{ kind: 'ok', scores: 9 }]);
    const r = await registry.get('anthropic')!.review(call('claude-x'));
    expect(r.reply).toEqual({ scores: { impact: 9, craft: 9 }, summary: 'A solid project.' });
    const sent = an.callsFor('claude-x')[0]!;
    expect(sent.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token (older versions used x-api-key).
    expect(String(sent.headers['x-api-key'] ?? sent.headers.authorization)).toMatch(/sk-ant-test/);
    expect(sent.body.tool_choice).toEqual({ type: 'tool', name: 'submit_review' });
    expect(sent.body.tools[0].input_schema.properties.scores.required).toEqual(['impact', 'craft']);
    expect(sent.body.system).toBe('sys');
  });

  it('HTTP errors surface with status and Retry-After, and the SDKs do not retry on their own', async () => {
    oa.script('rl', [{ kind: 'status', status: 429, retryAfter: '2' }]);
    const err = await registry
      .get('openai')!
      .review(call('rl'))
      .catch((e: unknown) => e);
    expect(fromSdkError(err, new Date())).toMatchObject({ retryable: true, retryAfterMs: 2000, status: 429 });
    expect(oa.callsFor('rl')).toHaveLength(1);

    an.script('boom', [{ kind: 'status', status: 500 }]);
    const err2 = await registry
      .get('anthropic')!
      .review(call('boom'))
      .catch((e: unknown) => e);
    expect(fromSdkError(err2, new Date())).toMatchObject({ retryable: true, status: 500 });
    expect(an.callsFor('boom')).toHaveLength(1);

    oa.script('denied', [{ kind: 'status', status: 401 }]);
    const err3 = await registry
      .get('openai')!
      .review(call('denied'))
      .catch((e: unknown) => e);
    expect(fromSdkError(err3, new Date())).toMatchObject({ retryable: false, status: 401 });
  });
});
