/**
 * Fitting a name into a chart label: at most `maxLines` lines of at most `width` pixels, broken at a
 * space, hyphen or slash where the line has one (else anywhere: Chinese has no spaces, and
 * neither has "Supercalifragilistic"), the last line ending in "…" when the name is longer. Pure: the
 * caller measures (a canvas in the browser, an estimate elsewhere).
 */
export type Measure = (text: string) => number;

export interface FittedLabel {
  lines: string[];
  truncated: boolean;
}

/** Code points, so a character outside the BMP (an emoji) is never cut in half. */
const chars = (s: string) => Array.from(s);

/** The longest prefix of `cs` (in characters) whose text, plus `suffix`, fits `width`. */
function longestFit(cs: string[], width: number, measure: Measure, suffix = ''): number {
  let lo = 0;
  let hi = cs.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(cs.slice(0, mid).join('') + suffix) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function fitLabel(text: string, width: number, measure: Measure, maxLines = 2): FittedLabel {
  const lines: string[] = [];
  let rest = chars(text.replace(/\s+/g, ' ').trim());
  while (rest.length > 0) {
    const whole = rest.join('');
    if (measure(whole) <= width) {
      lines.push(whole);
      return { lines, truncated: false };
    }
    if (lines.length === maxLines - 1) {
      // The last line: as much as fits before the ellipsis (at least one character).
      const n = Math.max(1, longestFit(rest, width, measure, '…'));
      lines.push(`${rest.slice(0, n).join('').trimEnd()}…`);
      return { lines, truncated: true };
    }
    const n = Math.max(1, longestFit(rest, width, measure));
    // Break at the line's last space, or after its last hyphen or slash (words stay whole); a word
    // longer than the line is cut where the line ends.
    let cut = n;
    for (let k = n; k > 0; k--) {
      if (rest[k] === ' ' || rest[k - 1] === '-' || rest[k - 1] === '/') {
        cut = k;
        break;
      }
    }
    lines.push(rest.slice(0, cut).join('').trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === ' ') rest = rest.slice(1);
  }
  return { lines, truncated: false };
}

/** Wide characters (CJK, Hangul, full-width forms) take about one em, the rest about 0.58 em. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
export function estimateWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const c of text) em += WIDE.test(c) ? 1 : 0.58;
  return em * fontSize;
}
