/** The carrier's longest side (cm): the drawing's scale is fixed so that a parcel of this size fills it. */
const MAX_SIDE_CM = 100;
/** Pixels of the drawing per centimetre. */
const SCALE = 1.4;
/** Cabinet projection: depth drawn at 30°, halved. */
const DEPTH = 0.5;
const COS = Math.cos(Math.PI / 6);
const SIN = Math.sin(Math.PI / 6);
const PAD = 8;
const WIDTH = Math.ceil((MAX_SIDE_CM + MAX_SIDE_CM * DEPTH * COS) * SCALE) + 2 * PAD;
const HEIGHT = Math.ceil((MAX_SIDE_CM + MAX_SIDE_CM * DEPTH * SIN) * SCALE) + 2 * PAD + 18;

export interface ParcelProps {
  comprimento: number;
  largura: number;
  altura: number;
  /** The text alternative: its size and weight, in the page's language. */
  label: string;
  weightText: string;
}

/**
 * A parcel drawn to one fixed scale (the carrier's 100 cm side fills the drawing, a 10 cm bar beside it), so two
 * previews compare at a glance: front face length × height, the width as depth.
 */
export function Parcel({ comprimento, largura, altura, label, weightText }: ParcelProps) {
  const c = Math.min(comprimento, MAX_SIDE_CM) * SCALE;
  const a = Math.min(altura, MAX_SIDE_CM) * SCALE;
  const dx = Math.min(largura, MAX_SIDE_CM) * SCALE * DEPTH * COS;
  const dy = Math.min(largura, MAX_SIDE_CM) * SCALE * DEPTH * SIN;
  const x = PAD;
  const y = HEIGHT - PAD - 18 - a;
  const point = (px: number, py: number) => `${px.toFixed(1)},${py.toFixed(1)}`;
  const front = [point(x, y), point(x + c, y), point(x + c, y + a), point(x, y + a)].join(' ');
  const top = [point(x, y), point(x + dx, y - dy), point(x + c + dx, y - dy), point(x + c, y)].join(' ');
  const side = [
    point(x + c, y),
    point(x + c + dx, y - dy),
    point(x + c + dx, y + a - dy),
    point(x + c, y + a),
  ].join(' ');
  const bar = 10 * SCALE;
  return (
    <svg class="parcel" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <polygon class="face top" points={top} />
      <polygon class="face side" points={side} />
      <polygon class="face front" points={front} />
      <text class="weight" x={x + c / 2} y={y + a / 2} text-anchor="middle" dominant-baseline="middle">
        {weightText}
      </text>
      <line class="ruler" x1={WIDTH - PAD - bar} y1={HEIGHT - 6} x2={WIDTH - PAD} y2={HEIGHT - 6} />
      <text class="ruler-text" x={WIDTH - PAD - bar - 4} y={HEIGHT - 2} text-anchor="end">
        10 cm
      </text>
    </svg>
  );
}
