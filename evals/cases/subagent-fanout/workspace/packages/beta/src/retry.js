export async function retry(fn, times = 3) {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      // TODO: wait between attempts (exponential backoff)
      if (i >= times) throw err;
    }
  }
}
