//! `none`: no lock. The region a lock would guard is still measured.

use super::Guard;
use crate::sim::Ops;
use crate::world::LockKey;

pub async fn acquire<O: Ops>(_: &O, _: LockKey) -> bool {
    true
}

pub async fn release<O: Ops>(_: &O, _: LockKey) {}

/// Nothing guards the section.
pub const GUARD: Guard = Guard::Nothing;
