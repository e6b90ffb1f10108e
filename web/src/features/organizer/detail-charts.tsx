import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { NameTick } from '../../ui/chart-label';
import { useDetailFormat as useFormat } from './detail-format';
import { chartData, type ChartData } from './detail-leaderboard-math';
import { TableWrap, useOrganizerT } from './detail-shared';
import type { LeaderboardEntry } from './detail-types';

/** Colours that keep a 3:1 contrast on white and stay apart for common colour blindness. */
const COLOURS = ['#3b3bd6', '#c2410c', '#0f766e', '#a21caf', '#4d7c0f', '#b42318', '#1d4ed8', '#92400e'];

function Chart({ data, title, name }: { data: ChartData; title: string; name: (s: string) => string }) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  // Each project gets a band with room for all its bars and a two-line name.
  const band = Math.max(36, data.series.length * 9 + 14);
  const height = Math.max(220, 90 + data.rows.length * band);
  const narrow = typeof window !== 'undefined' && window.innerWidth < 640;
  const labelWidth = narrow ? 104 : 150;
  return (
    <figure className="detail-chart">
      <figcaption className="chart-caption">{title}</figcaption>
      <div className="chart" style={{ height }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data.rows} layout="vertical" margin={{ top: 4, right: narrow ? 8 : 16, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={[0, 10]} ticks={[0, 2, 4, 6, 8, 10]} />
            <YAxis type="category" dataKey="label" width={labelWidth} interval={0} tick={<NameTick width={labelWidth - 10} />} />
            <Tooltip formatter={(v) => (typeof v === 'number' ? fmt.number(v, 2) : String(v ?? ''))} />
            <Legend />
            {data.series.map((s, i) => (
              <Bar key={s.key} dataKey={s.key} name={name(s.name)} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details className="detail-more-info">
        <summary>{t('leaderboard.dataTable')}</summary>
        <TableWrap label={title}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('leaderboard.project')}</th>
                {data.series.map((s) => (
                  <th key={s.key} scope="col" className="num">
                    {name(s.name)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.project_id}>
                  <td>{r.label}</td>
                  {data.series.map((s) => (
                    <td key={s.key} className="num">
                      {fmt.number(r[s.key] as number | null, 2)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </figure>
  );
}

/** The leaderboard's charts: top projects by dimension and by scoring group (recharts, its own chunk). */
export default function ScoreCharts({ entries, dimensions, topN }: { entries: LeaderboardEntry[]; dimensions: string[]; topN: number }) {
  const { t } = useOrganizerT();
  const byDimension = chartData(entries, 'scores_by_dimension', topN, dimensions);
  const byGroup = chartData(entries, 'scores_by_model', topN);
  const count = byDimension.rows.length;
  return (
    <div className="detail-charts">
      <Chart data={byDimension} title={t('leaderboard.byDimension', { count })} name={(s) => s} />
      <Chart data={byGroup} title={t('leaderboard.byGroup', { count })} name={(s) => (s === 'human' ? t('leaderboard.human') : s)} />
    </div>
  );
}
