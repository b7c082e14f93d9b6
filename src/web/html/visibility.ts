/**
 * Whether an element is hidden from a reader of the page, judged from its own attributes: what the
 * HTML reducer drops with its subtree. Only what the element itself says counts (no stylesheets,
 * no inherited colours): the `hidden` attribute, `aria-hidden`, and the inline `style`.
 */
import { ARIA_HIDDEN_IGNORED, HIDING } from './tags';
import type { Attributes } from './tree';

/**
 * Whether the element named `name` with these attributes is hidden: a `dialog` without `open`,
 * `hidden` (except
 * `until-found`, HTML §6.1, whose text a find-in-page reveals), `aria-hidden="true"` (except on
 * html, body, main and article, which sites set while a dialog is open), or a hiding inline style
 * (see {@link styleHides}).
 */
export function isHidden(name: string, attrs: Attributes): boolean {
  if (name === 'dialog' && attrs.get('open') === undefined) return true;
  if ((attrs.bits & HIDING) === 0) return false;
  const hidden = attrs.get('hidden');
  if (hidden !== undefined && hidden.toLowerCase() !== 'until-found') return true;
  if (attrs.get('aria-hidden') === 'true' && !ARIA_HIDDEN_IGNORED.has(name)) return true;
  const style = attrs.get('style');
  return style !== undefined && styleHides(style);
}

/** A negative offset at least this far, in px, puts an element off-screen. */
const OFF_SCREEN_PX = 500;
/** px per unit, for the off-screen test (CSS Values §6: 1in = 96px; em and rem at the 16px default). */
const PX_PER: Readonly<Record<string, number>> = {
  px: 1,
  pt: 4 / 3,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  em: 16,
  rem: 16,
  ex: 8,
  ch: 8,
};
/** Viewport-relative units: -100 or beyond is a whole screen away. */
const VIEWPORT_UNITS = new Set(['vw', 'vh', 'vmin', 'vmax', '%']);
const LENGTH = /^([+-]?(?:\d+\.?\d*|\.\d+))([a-z%]*)$/;

/** Declarations of an inline style, lowercase, comments and `!important` removed. */
function declarations(style: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const decl of style.replace(/\/\*[\s\S]*?\*\//g, '').split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    const prop = decl.slice(0, colon).trim().toLowerCase();
    const value = decl
      .slice(colon + 1)
      .replace(/!\s*important/i, '')
      .trim()
      .toLowerCase();
    if (prop && value) out.set(prop, value);
  }
  return out;
}

/** `0`, `0px`, `0.0em`, `0%` (a unitless or any-unit zero). */
function isZero(value: string | undefined): boolean {
  const m = value === undefined ? null : LENGTH.exec(value);
  return m !== null && Number(m[1]) === 0;
}

/** A length far off to the top or left: `-9999px`, `-100vw`, `-200em`. */
function isFarNegative(value: string | undefined): boolean {
  const m = value === undefined ? null : LENGTH.exec(value.split(/\s+/)[0]);
  if (m === null) return false;
  const n = Number(m[1]);
  if (VIEWPORT_UNITS.has(m[2])) return n <= -100;
  const px = PX_PER[m[2] || 'px'];
  return px !== undefined && n * px <= -OFF_SCREEN_PX;
}

/** Named colours a page might use to hide text, as `r,g,b`. */
const NAMED: Readonly<Record<string, string>> = {
  white: '255,255,255', black: '0,0,0', red: '255,0,0', lime: '0,255,0', blue: '0,0,255',
  yellow: '255,255,0', aqua: '0,255,255', cyan: '0,255,255', fuchsia: '255,0,255',
  magenta: '255,0,255', silver: '192,192,192', gray: '128,128,128', grey: '128,128,128',
  maroon: '128,0,0', olive: '128,128,0', green: '0,128,0', purple: '128,0,128', teal: '0,128,128',
  navy: '0,0,128', orange: '255,165,0', whitesmoke: '245,245,245', snow: '255,250,250',
}; // prettier-ignore

/** A colour as `r,g,b` (alpha dropped), `transparent`, or undefined when not understood. */
function colour(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.replace(/\s+/g, ' ').trim();
  if (v === 'transparent') return v;
  if (NAMED[v]) return NAMED[v];
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    if (full.length === 8 && full.slice(6) === '00') return 'transparent';
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).join(',');
  }
  const fn = /^rgba?\(\s*([^)]*)\)$/.exec(v)?.[1];
  if (fn) {
    const parts = fn.split(/[\s,/]+/).filter(Boolean);
    if (parts.length < 3) return undefined;
    if (parts.length >= 4 && isZero(parts[3])) return 'transparent';
    const rgb = parts.slice(0, 3).map((p) => {
      const n = parseFloat(p);
      return Math.round(Math.min(255, Math.max(0, p.endsWith('%') ? (n * 255) / 100 : n)));
    });
    return rgb.some(Number.isNaN) ? undefined : rgb.join(',');
  }
  return undefined;
}

/**
 * Whether an inline style hides the element's text: `display: none`, `visibility: hidden` or
 * `collapse` (CSS Display §2.5, CSS2 §11.2), `opacity: 0`, a zero `font-size` (or a `font` shorthand
 * with a zero size), placed far off-screen (`position: absolute|fixed` with `left`/`top` at -500px
 * or beyond, or such a `text-indent` or `margin-left`/`margin-top`), or text in the colour of its own
 * background (`color` equal to `background-color` or a one-colour `background`, or transparent).
 */
export function styleHides(style: string): boolean {
  if (!style.includes(':')) return false;
  const d = declarations(style);
  const display = d.get('display');
  const visibility = d.get('visibility');
  if (display === 'none' || visibility === 'hidden' || visibility === 'collapse') return true;
  if (isZero(d.get('opacity'))) return true;
  if (isZero(d.get('font-size'))) return true;
  const font = d.get('font');
  if (font !== undefined && font.split(/\s+/).some((t) => isZero(t.split('/')[0]) && /\d/.test(t))) {
    return true;
  }
  const position = d.get('position');
  if (
    (position === 'absolute' || position === 'fixed') &&
    (isFarNegative(d.get('left')) || isFarNegative(d.get('top')))
  ) {
    return true;
  }
  if (
    isFarNegative(d.get('text-indent')) ||
    isFarNegative(d.get('margin-left')) ||
    isFarNegative(d.get('margin-top'))
  ) {
    return true;
  }
  const fg = colour(d.get('color'));
  if (fg === 'transparent') return true;
  const bg = colour(d.get('background-color') ?? d.get('background'));
  return fg !== undefined && bg !== undefined && fg === bg;
}
