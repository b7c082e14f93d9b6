// Small string helpers.
export function fmtName(first, last) {
  return `${last}, ${first}`;
}

export function initials(first, last) {
  return `${first[0]}${last[0]}`;
}
