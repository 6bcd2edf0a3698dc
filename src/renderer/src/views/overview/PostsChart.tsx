import { useCallback, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Overview, OverviewBucket } from '../../../../shared/contract';
import { fmtInt } from '../../format';
import { localZoneName } from '../../stores/time-zone';

// Posts over time with uPlot (docs/decisions.md "Overview: charts"): one canvas, three series
// (posts, replies, quotes), the page's theme colours read from its CSS variables and read again
// when the system switches between light and dark.

export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  background: string;
  series: [string, string, string];
}

export function chartTheme(): ChartTheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#1b1f24'),
    muted: v('--muted', '#5f6b7a'),
    grid: v('--border', '#dde2e8'),
    background: v('--panel', '#ffffff'),
    series: [v('--accent', '#2f6fde'), v('--ok', '#1e8a4c'), v('--warn', '#b26a00')],
  };
}

/** The theme now, and again whenever the system's colour scheme changes. */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(chartTheme);
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setTheme(chartTheme());
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return theme;
}

export const SERIES_LABELS = ['Posts', 'Replies', 'Quotes'] as const;

const BUCKET_WORD = { hour: 'hour', day: 'day', week: 'week (from Monday)', month: 'month' } as const;

/** A bucket's start as its label: the hour for hourly buckets, the month alone for monthly ones. */
export function useBucketFormat(bucket: OverviewBucket | undefined, utc: boolean): (ms: number) => string {
  return useCallback(
    (ms: number) => {
      const hour = bucket === 'hour';
      return new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: bucket === 'month' ? undefined : 'numeric', hour: hour ? '2-digit' : undefined, minute: hour ? '2-digit' : undefined, timeZone: utc ? 'UTC' : undefined }).format(ms);
    },
    [bucket, utc],
  );
}

/** The zone the chart's buckets and labels are in, named as the app's dates and the search page name it. */
export const chartZone = (utc: boolean): string => (utc ? 'UTC' : localZoneName());

export function axisLabels(o: Overview, utc: boolean): { x: string; y: string } {
  return { x: `Time (${chartZone(utc)}, one point a ${BUCKET_WORD[o.bucket]})`, y: `Posts per ${o.bucket}` };
}

/** A tooltip that follows the cursor: the bucket's start and its three counts. */
function tooltipPlugin(fmtX: (ms: number) => string, theme: ChartTheme): uPlot.Plugin {
  let tip: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.className = 'chart-tooltip';
        tip.setAttribute('role', 'tooltip');
        tip.style.display = 'none';
        u.over.append(tip);
      },
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          tip.style.display = 'none';
          return;
        }
        const rows = SERIES_LABELS.map((label, k) => `<div><span class="swatch" style="background:${theme.series[k]}"></span>${label}: <b>${fmtInt(u.data[k + 1]![i] ?? 0)}</b></div>`);
        tip.innerHTML = `<div class="muted">${fmtX(u.data[0]![i]!)}</div>${rows.join('')}`;
        tip.style.display = 'block';
        const left = u.cursor.left + 12;
        tip.style.left = `${left + 170 > u.over.clientWidth ? u.cursor.left - 172 : left}px`;
        tip.style.top = `${Math.max(0, (u.cursor.top ?? 0) - 20)}px`;
      },
    },
  };
}

/**
 * `height`: the plot's, in px (the Overview's 280; a user's page draws a smaller one). Points are
 * marked while there are at most `pointsUpTo` buckets (a smaller chart has room for fewer).
 */
export function PostsChart({ overview, utc, fmtX, onCanvas, height = 280, pointsUpTo = 120 }: { overview: Overview; utc: boolean; fmtX: (ms: number) => string; onCanvas(canvas: HTMLCanvasElement | null): void; height?: number; pointsUpTo?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useChartTheme();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const labels = axisLabels(overview, utc);
    const axis = { stroke: theme.muted, grid: { stroke: theme.grid, width: 1 }, ticks: { stroke: theme.grid, width: 1 }, labelFont: '12px system-ui, sans-serif', font: '11px system-ui, sans-serif' };
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height,
      ms: 1,
      tzDate: utc ? (ts) => uPlot.tzDate(new Date(ts), 'Etc/UTC') : (ts) => new Date(ts),
      legend: { show: true, live: false },
      cursor: { drag: { x: true, y: false } },
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        { ...axis, label: labels.x, labelSize: 24 },
        { ...axis, label: labels.y, labelSize: 24, size: 56, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? fmtInt(v) : '')) },
      ],
      series: [
        { label: 'Time' },
        ...SERIES_LABELS.map((label, k) => ({ label, stroke: theme.series[k], width: 2, points: { show: overview.series.start_ms.length <= pointsUpTo } })),
      ],
      plugins: [tooltipPlugin(fmtX, theme)],
    };
    const data: uPlot.AlignedData = [overview.series.start_ms, overview.series.posts, overview.series.replies, overview.series.quotes];
    const chart = new uPlot(opts, data, el);
    onCanvas(chart.ctx.canvas);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(320, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      onCanvas(null);
      chart.destroy();
    };
  }, [overview, utc, theme, fmtX, onCanvas, height, pointsUpTo]);
  return <div ref={box} className="posts-chart" data-testid="posts-chart" aria-label={`Posts over time, per ${overview.bucket} (${chartZone(utc)})`} role="img" />;
}
