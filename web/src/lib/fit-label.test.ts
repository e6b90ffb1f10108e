import { describe, expect, it } from 'vitest';
import { estimateWidth, fitLabel } from './fit-label';

/** One unit per character, two for a Chinese one: widths are character counts. */
const measure = (s: string) => Array.from(s).reduce((w, c) => w + (/[\u4e00-\u9fff]/.test(c) ? 2 : 1), 0);

describe('fitLabel', () => {
  it('keeps a name that fits on one line', () => {
    expect(fitLabel('Short', 10, measure)).toEqual({ lines: ['Short'], truncated: false });
    expect(fitLabel('  Two   words ', 10, measure)).toEqual({ lines: ['Two words'], truncated: false });
  });

  it('breaks at the last space of the line and cuts the second line with an ellipsis', () => {
    expect(fitLabel('An Extraordinarily Long Project Name', 16, measure)).toEqual({ lines: ['An', 'Extraordinarily…'], truncated: true });
    expect(fitLabel('Retrieval Augmented Generation', 20, measure)).toEqual({ lines: ['Retrieval Augmented', 'Generation'], truncated: false });
    expect(fitLabel('one two three four five six', 9, measure)).toEqual({ lines: ['one two', 'three fo…'], truncated: true });
  });

  it('cuts a word longer than the line, and text with no spaces (Chinese) anywhere', () => {
    expect(fitLabel('Supercalifragilistic-Agent-Framework', 10, measure)).toEqual({ lines: ['Supercalif', 'ragilisti…'], truncated: true });
    // After a hyphen or a slash is a place to break too.
    expect(fitLabel('Retrieval-Augmented Generation', 12, measure)).toEqual({ lines: ['Retrieval-', 'Augmented G…'], truncated: true });
    expect(fitLabel('anthropic/claude-sonnet', 12, measure)).toEqual({ lines: ['anthropic/', 'claude-sonn…'], truncated: true });
    expect(fitLabel('一个名字非常非常长的项目', 8, measure)).toEqual({ lines: ['一个名字', '非常非…'], truncated: true });
    expect(fitLabel('一个名字', 8, measure)).toEqual({ lines: ['一个名字'], truncated: false });
  });

  it('never returns a line wider than asked, and always shows at least one character', () => {
    for (const name of ['An Extraordinarily Long Project Name That Keeps Going', '面向中小企业的智能客服与知识库自动构建系统', 'x'.repeat(200)]) {
      for (const width of [4, 7, 12, 30]) {
        const { lines } = fitLabel(name, width, measure);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.length).toBeLessThanOrEqual(2);
        for (const line of lines) expect(measure(line) <= width || Array.from(line.replace('…', '')).length === 1).toBe(true);
      }
    }
    expect(fitLabel('面向中', 1, measure).lines).toEqual(['面', '向…']);
  });

  it('estimates Chinese characters as wide', () => {
    expect(estimateWidth('ab', 10)).toBeCloseTo(11.6);
    expect(estimateWidth('中文', 10)).toBe(20);
  });
});
