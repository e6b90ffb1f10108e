import { estimateWidth, fitLabel, type Measure } from '../lib/fit-label';

let context: CanvasRenderingContext2D | null | undefined;

/** Measures text as the page draws it (its font), or estimates where there is no canvas. */
function measurer(fontSize: number): Measure {
  if (context === undefined) {
    try {
      context = document.createElement('canvas').getContext('2d');
    } catch {
      context = null;
    }
  }
  const ctx = context;
  if (!ctx) return (s) => estimateWidth(s, fontSize);
  ctx.font = `${fontSize}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  return (s) => ctx.measureText(s).width;
}

/**
 * A category-axis tick for a horizontal bar chart (recharts passes x, y and payload): the name on up
 * to two lines within `width` pixels, cut with "…" when longer, and the whole name as the SVG title
 * (shown on hover; the table beside every chart has the names in full).
 */
export function NameTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown }; width: number; fontSize?: number }) {
  const fontSize = props.fontSize ?? 12;
  const value = props.payload?.value;
  const name = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const { lines } = fitLabel(name, props.width, measurer(fontSize));
  const x = Number(props.x ?? 0);
  const y = Number(props.y ?? 0);
  const lineHeight = 1.15;
  // Centred on the bar: the first baseline sits half the block above the middle.
  const first = 0.35 - ((lines.length - 1) * lineHeight) / 2;
  return (
    <text x={x} y={y} textAnchor="end" fontSize={fontSize} fill="#4a5163" className="chart-name">
      <title>{name}</title>
      {lines.map((line, i) => (
        <tspan key={i} x={x} dy={`${i === 0 ? first : lineHeight}em`}>
          {line}
        </tspan>
      ))}
    </text>
  );
}
