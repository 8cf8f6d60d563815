//! The property tests' runner: a fixed seed and few cases in CI, or `TETHER_FUZZ_CASES`
//! fresh-seeded cases for `./build.sh fuzz`.

use proptest::test_runner::{Config, RngSeed, TestRunner};

pub fn runner(ci_cases: u32, ci_seed: u64) -> TestRunner {
    let fuzz_cases = std::env::var("TETHER_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok());
    TestRunner::new(Config {
        cases: fuzz_cases.unwrap_or(ci_cases),
        rng_seed: if fuzz_cases.is_some() {
            RngSeed::Random
        } else {
            RngSeed::Fixed(ci_seed)
        },
        failure_persistence: None,
        ..Config::default()
    })
}
