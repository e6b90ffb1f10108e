import type { AiConfig, ProviderConfig } from '../../core/config.js';
import { anthropicProvider } from './anthropic.js';
import { openAiCompatibleProvider } from './openai-compatible.js';
import type { ReviewProvider } from './provider.js';

export { ProviderError, fromSdkError, type ProviderReply, type ReviewCall, type ReviewProvider } from './provider.js';

/** `provider/model`, split at the first '/': the model part may itself contain slashes. */
export function splitModelId(id: string): { provider: string; model: string } {
  const i = id.indexOf('/');
  if (i <= 0) return { provider: id.toLowerCase(), model: '' };
  // Provider names are case-insensitive (they come from environment variable names).
  return { provider: id.slice(0, i).toLowerCase(), model: id.slice(i + 1) };
}

/** The environment variable an operator sets to configure `provider`: quoted in failure reasons. */
export function configHint(provider: string): string {
  switch (provider) {
    case 'openai':
      return 'set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server)';
    case 'anthropic':
      return 'set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL if needed)';
    case 'ollama':
      return 'set OLLAMA_BASE_URL';
    default:
      return `set AI_PROVIDER_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
  }
}

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
