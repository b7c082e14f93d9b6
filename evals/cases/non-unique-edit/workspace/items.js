export function priceOf(item) {
  if (!item) return 0;
  return item.price;
}

export function weightOf(item) {
  if (!item) return 0;
  return item.weight;
}
