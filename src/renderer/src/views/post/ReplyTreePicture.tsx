import { type MouseEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ReplyShape } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { ErrorState, Loading } from '../../components/States';
import { fmtDate, fmtInt } from '../../format';
import { navigate } from '../../router';
import { csvField, download, svgPng } from '../overview/chart-export';
import { type ChartTheme, useChartTheme } from '../overview/PostsChart';
import { binOf, layoutTree, mix, MIN_BLOCK_PX, REPLY_BINS, type TreeBlock, type TreeLayout } from './reply-tree-layout';

// The reply tree as a picture beside its list (issue 16): who replied to whom, level by level, as
// an icicle (reply-tree-layout.ts) drawn in SVG, so it saves as SVG as it is and as PNG through a
// canvas. Every count comes from the engine ('post.replyShape'); colours are the theme's.

const LEFT = 86;
const RIGHT = 52;
const TOP = 4;
const BOTTOM = 40;
/** Rows share about 460 px: 22 px each for the demo's 17, thinner for deeper trees. */
const ROWS_PX = 460;

export function ReplyTreePicture({ id, onLevel }: { id: string; onLevel(depth: number): void }) {
  const shape = useSkein('post.replyShape', { id }, { staleTime: Infinity });
  if (shape.error) return <ErrorState error={shape.error} />;
  if (shape.isPending) return <Loading lines={4} />;
  if (shape.data.total === 0) return null;
  return <TreeChart shape={shape.data} onLevel={onLevel} />;
}

interface Colors {
  bins: string[];
  group: string;
  /** The levels under a group, which hold its replies' replies. */
  groupBelow: string;
  labelOn: (bin: number) => string;
}

function colorsOf(t: ChartTheme): Colors {
  const bins = [0.16, 0.32, 0.5, 0.72, 1].map((k) => mix(t.background, t.series[0], k));
  // Text on the two darkest bins takes the panel's colour (white in light mode, near-black in dark).
  return { bins, group: mix(t.background, t.muted, 0.4), groupBelow: mix(t.background, t.muted, 0.16), labelOn: (bin) => (bin >= 3 ? t.background : t.text) };
}

function TreeChart({ shape, onLevel }: { shape: ReplyShape; onLevel(depth: number): void }) {
  const box = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<{ i: number; x: number; y: number } | null>(null);
  const theme = useChartTheme();
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const resize = new ResizeObserver(() => setWidth(el.clientWidth));
    resize.observe(el);
    return () => resize.disconnect();
  }, []);
  const plotW = Math.max(120, width - LEFT - RIGHT);
  const layout = useMemo(() => layoutTree(shape, plotW), [shape, plotW]);
  const colors = useMemo(() => colorsOf(theme), [theme]);
  const rows = shape.levels.length + 1;
  const rowH = Math.max(6, Math.min(22, Math.floor(ROWS_PX / rows)));
  const height = TOP + rows * rowH + BOTTOM;
  const labelEvery = rowH >= 12 ? 1 : Math.ceil(12 / rowH);

  const blockAt = (e: MouseEvent) => {
    const i = Number((e.target as Element).closest('[data-i]')?.getAttribute('data-i'));
    return Number.isInteger(i) ? i : null;
  };
  const onMove = (e: MouseEvent) => {
    const i = blockAt(e);
    const rect = box.current!.getBoundingClientRect();
    setHover(i === null ? null : { i, x: e.clientX - rect.left, y: e.clientY - rect.top });
  };
  const onClick = (e: MouseEvent) => {
    const i = blockAt(e);
    const b = i === null ? undefined : layout.blocks[i];
    if (!b || b.kind === 'root') return;
    if (b.kind === 'post') {
      if (!b.isProtected) navigate(`/post/${b.id_str}`);
      return;
    }
    // A group: its replies are listed on their post's page (the root's are the first tab here).
    if (b.id_str === shape.root.id_str) onLevel(1);
    else navigate(`/post/${b.id_str}`);
  };

  const fileBase = `reply-tree-${shape.root.id_str}`;
  const saveSvg = () => svg.current && download(`${fileBase}.svg`, new Blob([svgText(svg.current)], { type: 'image/svg+xml' }));
  const savePng = async () => {
    if (!svg.current) return;
    const blob = await svgPng(svgText(svg.current), width, height, theme.background);
    if (blob) download(`${fileBase}.png`, blob);
  };
  const saveCsv = () => download(`${fileBase}.csv`, new Blob([shapeCsv(shape)], { type: 'text/csv' }));

  const hovered = hover ? layout.blocks[hover.i] : undefined;
  return (
    <section className="reply-tree-picture" aria-labelledby="reply-tree-title" data-testid="reply-tree">
      <div className="overview-toolbar">
        <h3 id="reply-tree-title" className="small-heading">Reply tree</h3>
        <span className="muted small">who replied to whom, by level</span>
        <span className="spacer" />
        <button type="button" className="subtle small" onClick={() => void savePng()}>Save PNG</button>
        <button type="button" className="subtle small" onClick={saveSvg}>Save SVG</button>
        <button type="button" className="subtle small" onClick={saveCsv}>Save CSV</button>
      </div>
      <div ref={box} className="reply-tree-box" onMouseLeave={() => setHover(null)}>
        {width > 0 ? (
          <svg
            ref={svg}
            xmlns="http://www.w3.org/2000/svg"
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            fontFamily="system-ui, sans-serif"
            fontSize="11"
            role="img"
            aria-label={`Reply tree: ${summaryOf(shape, layout)}`}
            onMouseMove={onMove}
            onClick={onClick}
          >
            <rect width={width} height={height} fill={theme.background} />
            <Rows shape={shape} layout={layout} rowH={rowH} labelEvery={labelEvery} plotW={plotW} theme={theme} onLevel={onLevel} />
            {layout.blocks.map((b, i) => (
              <Block key={i} i={i} b={b} rowH={rowH} colors={colors} selected={hover?.i === i} theme={theme} />
            ))}
            <text x={LEFT + plotW / 2} y={height - 8} textAnchor="middle" fill={theme.text}>
              {`Width: posts in each reply's branch, the reply and all replies under it (a whole row = ${fmtInt(shape.root.size)} posts)`}
            </text>
            <text transform={`translate(12 ${TOP + (rows * rowH) / 2}) rotate(-90)`} textAnchor="middle" fill={theme.text}>
              Reply level
            </text>
          </svg>
        ) : null}
        {hovered ? <Tip b={hovered} x={hover!.x} y={hover!.y} boxWidth={width} rootId={shape.root.id_str} /> : null}
      </div>
      <Legend colors={colors} />
      <p className="muted small" data-testid="reply-tree-summary">{summaryOf(shape, layout)}</p>
    </section>
  );
}

function svgText(el: SVGSVGElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(el)}\n`;
}

/** The level labels on the left (a click lists that level below), and each level's replies on the right. */
function Rows({ shape, layout, rowH, labelEvery, plotW, theme, onLevel }: { shape: ReplyShape; layout: TreeLayout; rowH: number; labelEvery: number; plotW: number; theme: ChartTheme; onLevel(depth: number): void }) {
  const y = (depth: number) => TOP + depth * rowH + rowH / 2 + 4;
  return (
    <g>
      <text x={LEFT - 8} y={y(0)} textAnchor="end" fill={theme.muted}>This post</text>
      {layout.levels.map((l) =>
        l.depth % labelEvery === 0 || l.depth === 1 ? (
          <g key={l.depth} className="reply-tree-level" onClick={() => onLevel(l.depth)}>
            <title>{`Level ${l.depth}: ${fmtInt(l.replies)} replies; ${fmtInt(l.drawn)} drawn one by one, the rest in ${fmtInt(l.groups)} grey groups or under a group above. Click to list them.`}</title>
            <text x={LEFT - 8} y={y(l.depth)} textAnchor="end" fill={theme.muted} data-testid={`tree-level-${l.depth}`}>{`Level ${l.depth}`}</text>
            <text x={LEFT + plotW + 6} y={y(l.depth)} fill={theme.muted}>{fmtInt(l.replies)}</text>
          </g>
        ) : null,
      )}
      <text x={LEFT + plotW + 6} y={y(0)} fill={theme.muted}>{shape.levels.length ? 'replies' : ''}</text>
    </g>
  );
}

function Block({ i, b, rowH, colors, selected, theme }: { i: number; b: TreeBlock; rowH: number; colors: Colors; selected: boolean; theme: ChartTheme }) {
  const x = LEFT + b.x;
  const y = TOP + b.depth * rowH;
  // A 1 px gap between blocks wide enough to spare it; a group is always at least 1 px wide.
  const w = Math.max(1, b.w > MIN_BLOCK_PX + 1 ? b.w - 1 : b.w);
  const bin = binOf(b.replies);
  const fill = b.kind === 'group' ? colors.group : colors.bins[bin]!;
  const label = b.kind !== 'group' && b.screen_name && w > 48 && rowH >= 14 ? clipTo(`@${b.screen_name}`, w - 8) : null;
  return (
    <g data-i={i} className={b.kind === 'root' ? undefined : 'reply-tree-block'}>
      {b.levels_below > 0 ? <rect x={x} y={y + rowH} width={w} height={b.levels_below * rowH - 2} fill={colors.groupBelow} rx={1.5} /> : null}
      <rect x={x} y={y} width={w} height={rowH - 2} fill={fill} stroke={selected ? theme.text : 'none'} strokeWidth={selected ? 1.5 : 0} rx={1.5} />
      {label ? (
        <text x={x + 4} y={y + rowH / 2 + 3} fill={colors.labelOn(bin)} pointerEvents="none">{label}</text>
      ) : null}
    </g>
  );
}

/** Text cut to about `px` at 11 px (6.2 px a character on average). */
function clipTo(text: string, px: number): string {
  const n = Math.floor(px / 6.2);
  return text.length <= n ? text : `${text.slice(0, Math.max(1, n - 1))}…`;
}

function Legend({ colors }: { colors: Colors }) {
  return (
    <span className="reply-tree-legend small muted" aria-label="Colours: direct replies to a reply">
      Direct replies:
      {REPLY_BINS.map((b, k) => (
        <span key={b.label}><span className="swatch" style={{ background: colors.bins[k] }} />{b.label}</span>
      ))}
      <span><span className="swatch" style={{ background: colors.group }} />grouped replies</span>
      <span><span className="swatch" style={{ background: colors.groupBelow }} />their replies</span>
    </span>
  );
}

function Tip({ b, x, y, boxWidth, rootId }: { b: TreeBlock; x: number; y: number; boxWidth: number; rootId: string }) {
  const left = x + 14 + 300 > boxWidth ? Math.max(0, x - 314) : x + 14;
  const style = { left, top: y + 14 };
  if (b.kind === 'group') {
    const to = b.screen_name ? `@${b.screen_name}` : 'a protected account’s reply';
    return (
      <div className="chart-tooltip reply-tree-tip" role="tooltip" style={style} data-testid="reply-tree-tip">
        <div><b>{fmtInt(b.replies)} {b.replies === 1 ? 'reply' : 'replies'}</b> to {b.id_str === rootId ? 'this post' : to}, drawn together</div>
        <div className="muted">
          Each is narrower than {MIN_BLOCK_PX} px at this width: {fmtInt(b.size)} posts with the replies under them
          {b.levels_below > 0 ? `, down to level ${b.depth + b.levels_below}` : ''}.
        </div>
        <div className="muted">{b.id_str === rootId ? 'Click to list the direct replies below.' : `Click to open ${to}’s post: its own tree shows them.`}</div>
      </div>
    );
  }
  return (
    <div className="chart-tooltip reply-tree-tip" role="tooltip" style={style} data-testid="reply-tree-tip">
      <div>
        <b>{b.isProtected ? 'A protected account’s reply' : `@${b.screen_name ?? ''}`}</b>
        <span className="muted"> · {b.kind === 'root' ? 'this post' : `level ${b.depth}`}{b.created_ms ? ` · ${fmtDate(b.created_ms)}` : ''}</span>
      </div>
      {b.text ? <div className="reply-tree-tip-text">{b.text}</div> : null}
      <div className="muted">
        {fmtInt(b.replies)} direct {b.replies === 1 ? 'reply' : 'replies'} · {fmtInt(b.size)} {b.size === 1 ? 'post' : 'posts'} in its branch
      </div>
      {b.kind === 'post' && !b.isProtected ? <div className="muted">Click to open it.</div> : null}
    </div>
  );
}

export function summaryOf(shape: ReplyShape, layout: TreeLayout): string {
  const levels = shape.levels.length;
  const grouped = shape.total - layout.drawn;
  const locked = shape.levels.reduce((n, l) => n + l.protected, 0);
  return (
    `${fmtInt(shape.total)} ${shape.total === 1 ? 'reply' : 'replies'} over ${levels} ${levels === 1 ? 'level' : 'levels'}. ` +
    (grouped === 0
      ? 'Each is drawn on its own. '
      : `${fmtInt(layout.drawn)} are drawn one by one; the other ${fmtInt(grouped)}, each narrower than ${MIN_BLOCK_PX} px at this width, are drawn in ${fmtInt(layout.groups)} grey groups (the replies to one post, with the replies under them). `) +
    (locked > 0 ? `${fmtInt(locked)} from protected accounts are drawn without author or text. ` : '') +
    (shape.more_levels ? 'The tree goes on below the 100 levels or 200,000 replies walked. ' : '') +
    'Hover for the author and the text; click to open a post.'
  );
}

/** The numbers of the picture: every reply sent, with its level, direct replies and branch size. */
function shapeCsv(shape: ReplyShape): string {
  const lines = ['id_str,parent_id_str,level,screen_name,direct_replies,branch_posts,created_at_utc'];
  lines.push([shape.root.id_str, '', 0, shape.root.screen_name ?? '', shape.root.replies, shape.root.size, ''].map(csvField).join(','));
  for (const n of shape.nodes) lines.push([n.id_str, n.parent_id_str, n.depth, n.screen_name ?? '', n.replies, n.size, new Date(n.created_ms).toISOString()].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
