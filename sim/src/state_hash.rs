//! The state hash: every piece of evolving state, over the exact bits of every float, so equal
//! hashes on two machines mean the two simulations agreed to the bit. Each struct is written by
//! destructuring, so a new field does not compile until it is hashed or said not to evolve.

use super::math::Vec2;

/// FNV-1a, 64-bit: tiny, stable across targets and versions (unlike std's hasher).
pub struct StateHasher(u64);

impl StateHasher {
    pub fn new() -> Self {
        StateHasher(0xcbf2_9ce4_8422_2325)
    }
    pub fn u64(&mut self, value: u64) {
        for byte in value.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub fn bool(&mut self, value: bool) {
        self.u64(value as u64);
    }
    pub fn f32(&mut self, value: f32) {
        self.u64(value.to_bits() as u64);
    }
    pub fn vec(&mut self, v: Vec2) {
        self.f32(v.x);
        self.f32(v.y);
    }
    pub fn vecs(&mut self, vs: &[Vec2]) {
        self.u64(vs.len() as u64);
        for &v in vs {
            self.vec(v);
        }
    }
    pub fn option_u64(&mut self, value: Option<u64>) {
        self.u64(value.unwrap_or(u64::MAX));
    }
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for StateHasher {
    fn default() -> Self {
        Self::new()
    }
}
