import { configHint } from '../../core/ai-models.js';
import type { AiConfig, ProviderConfig } from '../../core/config.js';
import { anthropicProvider } from './anthropic.js';
import { openAiCompatibleProvider } from './openai-compatible.js';
import type { ReviewProvider } from './provider.js';

export { configHint, splitModelId } from '../../core/ai-models.js';
export { ProviderError, fromSdkError, type ProviderReply, type ReviewCall, type ReviewProvider } from './provider.js';

export function notConfiguredReason(provider: string): string {
  return `provider "${provider}" is not configured: ${configHint(provider)}`;
}

/** The configured providers, one client each, built once per process. */
export interface ProviderRegistry {
  names(): string[];
  get(provider: string): ReviewProvider | undefined;
}

/**
 * Ollama serves its OpenAI-compatible API under /v1, but operators usually know its bare address
 * (`http://localhost:11434`): a bare OLLAMA_BASE_URL gets /v1 added. Every other base URL is used as
 * given (OpenAI-style base URLs already end in /v1).
 */
export function effectiveBaseUrl(cfg: ProviderConfig): string {
  if (cfg.name === 'ollama' && /^https?:\/\/[^/]+\/?$/.test(cfg.baseUrl)) return `${cfg.baseUrl.replace(/\/$/, '')}/v1`;
  return cfg.baseUrl;
}

export function createProviderRegistry(ai: AiConfig): ProviderRegistry {
  const providers = new Map<string, ReviewProvider>();
  for (const raw of Object.values(ai.providers)) {
    const cfg = { ...raw, baseUrl: effectiveBaseUrl(raw) };
    providers.set(
      cfg.name,
      cfg.kind === 'anthropic' ? anthropicProvider(cfg, { timeoutMs: ai.timeoutMs }) : openAiCompatibleProvider(cfg, { timeoutMs: ai.timeoutMs }),
    );
  }
  return { names: () => [...providers.keys()], get: (name) => providers.get(name) };
}
