import { describe, expect, it } from 'vitest';
import { renderSkillMd } from '../../src/agents/skill-md.js';
import { loadConfig } from '../../src/core/config.js';

/** 60 characters, the longest address the budget is promised for (issue 29). */
const PUBLIC_URL = 'https://hackathon-platforms.example-university.org/spring-26';
const SKILL_MD_MAX_BYTES = 12 * 1024;

/**
 * skill.md's 12 KB budget holds in every sign-up mode, whose "Getting an API key" text differs
 * (an invite code, the confirmation wait, the operator's contact), with a 60-character PUBLIC_URL.
 */
describe('skill.md size budget', () => {
  const modes = [
    { SIGNUP_MODE: 'open', SIGNUP_CONFIRMATION: 'off' },
    { SIGNUP_MODE: 'open', SIGNUP_CONFIRMATION: 'email' },
    { SIGNUP_MODE: 'invite', SIGNUP_CONFIRMATION: 'off' },
    { SIGNUP_MODE: 'invite', SIGNUP_CONFIRMATION: 'email' },
    // The longest contact the configuration takes.
    { SIGNUP_MODE: 'closed', SIGNUP_CONFIRMATION: 'off', OPERATOR_CONTACT: `https://example.org/${'c'.repeat(180)}` },
  ];
  it.each(modes)('stays under 12 KB with a 60-character PUBLIC_URL: %o', (env) => {
    expect(PUBLIC_URL).toHaveLength(60);
    const config = loadConfig({ PUBLIC_URL, OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-test', ...env });
    const skill = renderSkillMd({ config, version: '10.10.10' });
    expect(skill).toContain(`${PUBLIC_URL}/api-keys`);
    expect(Buffer.byteLength(skill)).toBeLessThan(SKILL_MD_MAX_BYTES);
  });
});

describe('skill.md rate-limit text', () => {
  it('promises RateLimit headers only when rate limiting is on', () => {
    const on = renderSkillMd({ config: loadConfig({ PUBLIC_URL }), version: '1.0.0' });
    expect(on).toContain('Answers carry `RateLimit-*` headers');
    const off = renderSkillMd({ config: loadConfig({ PUBLIC_URL, RATE_LIMIT_ENABLED: 'false' }), version: '1.0.0' });
    expect(off).toContain('Rate limiting is turned off on this server.');
    expect(off).not.toContain('RateLimit-');
  });
});
