import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * A horizontal bar chart of the top projects' final scores. Loaded lazily (recharts is large) and
 * hidden from assistive technology: the ranking table beside it carries the same numbers.
 */
export default function ScoreChart({ bars, scoreLabel, format }: { bars: Array<{ label: string; score: number; rank: number }>; scoreLabel: string; format: (n: number) => string }) {
  const height = Math.max(160, bars.length * 38 + 40);
  // On a phone the names get less room so the bars keep most of the width.
  const narrow = typeof window !== 'undefined' && window.innerWidth < 640;
  const labelMax = narrow ? 10 : 18;
  return (
    <div className="chart" aria-hidden="true" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={bars} layout="vertical" margin={{ top: 4, right: narrow ? 12 : 24, bottom: 4, left: narrow ? 0 : 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" domain={[0, 10]} tickFormatter={format} />
          <YAxis type="category" dataKey="label" width={narrow ? 76 : 130} tick={{ fontSize: 12 }} tickFormatter={(v: string) => (v.length > labelMax ? `${v.slice(0, labelMax - 1)}…` : v)} />
          <Tooltip formatter={(value) => [format(Number(value)), scoreLabel]} />
          <Bar dataKey="score" fill="#3b3bd6" radius={[0, 4, 4, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
