//! Token buckets per client address and per player key, in memory (each HTTP process limits
//! what reaches it; a proxy in front limits the whole). A bucket holds up to two seconds' worth
//! of requests and refills continuously.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

pub struct RateLimiter {
    per_s: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// Buckets kept before idle ones (full again) are dropped: bounds memory under many addresses.
const MAX_BUCKETS: usize = 100_000;

impl RateLimiter {
    pub fn new(per_s: f64) -> RateLimiter {
        RateLimiter {
            per_s,
            burst: (per_s * 2.0).max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token from `who`'s bucket; false when it is empty.
    pub fn allow(&self, who: &str) -> bool {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().expect("not poisoned");
        if buckets.len() >= MAX_BUCKETS {
            let (per_s, burst) = (self.per_s, self.burst);
            buckets.retain(|_, b| {
                b.tokens + now.duration_since(b.updated).as_secs_f64() * per_s < burst
            });
        }
        let bucket = buckets.entry(who.to_string()).or_insert(Bucket {
            tokens: self.burst,
            updated: now,
        });
        let refill = now.duration_since(bucket.updated).as_secs_f64() * self.per_s;
        bucket.tokens = (bucket.tokens + refill).min(self.burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refuses() {
        let limiter = RateLimiter::new(1.0);
        assert!(limiter.allow("a") && limiter.allow("a"));
        assert!(!limiter.allow("a"));
        assert!(limiter.allow("b"), "buckets are per client");
    }
}
