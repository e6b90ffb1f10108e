import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { NameTick } from '../../ui/chart-label';

/**
 * A horizontal bar chart of the top projects' final scores. Loaded lazily (recharts is large) and
 * hidden from assistive technology: the ranking table beside it carries the same numbers. Names get
 * two lines within the label column, cut with "…" (the whole name on hover and in the table).
 */
export default function ScoreChart({
  bars,
  scoreLabel,
  format,
}: {
  bars: Array<{ label: string; score: number; rank: number }>;
  scoreLabel: string;
  format: (n: number) => string;
}) {
  const height = Math.max(160, bars.length * 42 + 40);
  // On a phone the names get less room so the bars keep most of the width.
  const narrow = typeof window !== 'undefined' && window.innerWidth < 640;
  const labelWidth = narrow ? 112 : 220;
  return (
    <div className="chart" aria-hidden="true" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={bars} layout="vertical" margin={{ top: 4, right: narrow ? 12 : 24, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" domain={[0, 10]} tickFormatter={format} />
          <YAxis type="category" dataKey="label" width={labelWidth} interval={0} tick={<NameTick width={labelWidth - 10} />} />
          <Tooltip formatter={(value) => [format(Number(value)), scoreLabel]} />
          <Bar dataKey="score" fill="#3b3bd6" radius={[0, 4, 4, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
