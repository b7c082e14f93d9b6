/**
 * Text that tries to drive the terminal: one of each OSC 52 (clipboard), OSC 0 (title, BEL and ST
 * ended), OSC 8 (hidden link), CSI 2J, 8-bit CSI, DCS/APC/PM/SOS strings, a lone ESC, C1 controls,
 * a carriage return and a backspace, then `sgr` (colour the tool or model tried to set).
 */
export const ESC = '\u001b';
export const BEL = '\u0007';
const ST = `${ESC}\\`;

export function hostileText(sgr: string): string {
  return [
    `${ESC}]52;c;cm0gLXJmIH4=${BEL}`,
    `${ESC}]0;owned-title${BEL}`,
    `${ESC}]0;owned-title${ST}`,
    `${ESC}]8;;https://evil.example/${ST}link${ESC}]8;;${ST}`,
    `${ESC}[2J${ESC}[H`,
    '\u009b2J',
    `${ESC}P+q544e${ST}${ESC}_apc${ST}${ESC}^pm${ST}${ESC}Xsos${ST}`,
    `${ESC}`,
    '\u0085\u008d\u0096',
    'gone\r',
    'x\b',
    sgr,
  ].join('');
}
