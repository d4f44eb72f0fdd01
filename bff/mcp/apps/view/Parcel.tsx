/** The drawing's box (px); the parcel is scaled to fill it, its proportions kept, a 10 cm bar giving the scale. */
const WIDTH = 200;
const HEIGHT = 150;
const PAD = 10;
/** Room under the parcel for the scale bar. */
const FOOT = 20;
/** A tiny parcel is not blown up past this many pixels per centimetre. */
const MAX_SCALE = 9;
/** Cabinet projection: depth drawn at 30°, halved. */
const DEPTH = 0.5;
const COS = Math.cos(Math.PI / 6);
const SIN = Math.sin(Math.PI / 6);

export interface ParcelProps {
  comprimento: number;
  largura: number;
  altura: number;
  /** The text alternative: its size and weight, in the page's language. */
  label: string;
}

/**
 * A parcel drawn to scale: front face length × height, the width as depth, all three in proportion, and a bar of
 * 10 cm at the same scale beneath it.
 */
export function Parcel({ comprimento, largura, altura, label }: ParcelProps) {
  const across = comprimento + largura * DEPTH * COS;
  const up = altura + largura * DEPTH * SIN;
  const scale = Math.min(MAX_SCALE, (WIDTH - 2 * PAD) / across, (HEIGHT - 2 * PAD - FOOT) / up);
  const c = comprimento * scale;
  const a = altura * scale;
  const dx = largura * scale * DEPTH * COS;
  const dy = largura * scale * DEPTH * SIN;
  const x = PAD;
  const y = PAD + dy;
  const point = (px: number, py: number) => `${px.toFixed(1)},${py.toFixed(1)}`;
  const front = [point(x, y), point(x + c, y), point(x + c, y + a), point(x, y + a)].join(' ');
  const top = [point(x, y), point(x + dx, y - dy), point(x + c + dx, y - dy), point(x + c, y)].join(' ');
  const side = [
    point(x + c, y),
    point(x + c + dx, y - dy),
    point(x + c + dx, y + a - dy),
    point(x + c, y + a),
  ].join(' ');
  const bar = 10 * scale;
  const barY = y + a + FOOT / 2 + 2;
  return (
    <svg class="parcel" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <polygon class="face top" points={top} />
      <polygon class="face side" points={side} />
      <polygon class="face front" points={front} />
      <line class="ruler" x1={x} y1={barY} x2={x + bar} y2={barY} />
      <text class="ruler-text" x={x + bar + 4} y={barY + 4}>
        10 cm
      </text>
    </svg>
  );
}
