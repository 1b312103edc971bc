// The random numbers of the generators that test the simulation against
// the real thing (tests/js/event_order.mjs, scripts/sql-differential.mjs,
// scripts/redis-differential.mjs): xorshift32 from `seed`, so a seed
// writes the same program on every machine. `below(n)` is the next number
// in 0..n.
export function xorshift(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}
