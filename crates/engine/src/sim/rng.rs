//! The one seeded RNG. ChaCha8 is value-stable across versions and targets,
//! and `libm` keeps the float maths bit-identical natively and in wasm.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::config::{Latency, Micros};

/// Independent streams of one seed, so drawing arrivals or routes never
/// shifts the latencies.
#[derive(Clone, Copy)]
pub enum Stream {
    Latency = 0,
    Arrival = 1,
    Routing = 2,
    /// XFetch's early-refresh draws.
    Xfetch = 3,
    /// A script's `Math.random()`.
    Script = 4,
}

pub struct SimRng(ChaCha8Rng);

impl SimRng {
    pub fn new(seed: u64, stream: Stream) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream as u64);
        SimRng(rng)
    }

    /// Uniform in `0..bound` (`bound > 0`), by multiply-shift.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.0.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// Uniform in `[0, 1)` with 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An exponential draw with this mean, rounded to whole microseconds.
    pub fn exp(&mut self, mean: f64) -> f64 {
        -mean * libm::log(1.0 - self.unit())
    }

    /// One latency draw; constants consume nothing.
    #[inline]
    pub fn latency(&mut self, latency: Latency) -> Micros {
        match latency {
            Latency::Const(d) => d,
            Latency::Uniform(low, high) => low + self.below(high - low + 1),
            Latency::Exp(mean) => libm::round(self.exp(mean as f64)) as Micros,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_stable_for_a_seed() {
        let draw = |seed| {
            let mut rng = SimRng::new(seed, Stream::Latency);
            (0..4)
                .map(|_| rng.latency(Latency::Uniform(1_000, 5_000)))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        assert!(draw(7).iter().all(|d| (1_000..=5_000).contains(d)));
    }

    #[test]
    fn streams_are_independent() {
        let mut a = SimRng::new(1, Stream::Latency);
        let mut b = SimRng::new(1, Stream::Arrival);
        assert_ne!(a.below(u64::MAX), b.below(u64::MAX));
    }

    #[test]
    fn exp_has_roughly_the_mean() {
        let mut rng = SimRng::new(3, Stream::Latency);
        let n = 20_000;
        let total: u64 = (0..n).map(|_| rng.latency(Latency::Exp(1_000))).sum();
        let mean = total as f64 / n as f64;
        assert!((950.0..1_050.0).contains(&mean), "mean {mean}");
    }
}
