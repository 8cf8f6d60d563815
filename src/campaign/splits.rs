//! Splits: when the player first reaches a checkpoint, the HUD compares the time with the same
//! checkpoint on their best run ("-0.42" ahead, "+1.10" behind).

use crate::sim::TICKS_PER_SECOND;

/// One split shown: the checkpoint's place in reaching order and the difference to the best run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitDelta {
    /// 0 for the first checkpoint reached on this run.
    pub order: usize,
    pub ticks: u64,
    /// This run minus the best run at the same split, in ticks (negative: ahead).
    pub delta_ticks: Option<i64>,
}

/// The split for reaching the `order`-th checkpoint (0-based) at `ticks`, against `best` (the
/// best run's splits). No delta when the best run reached fewer checkpoints.
pub fn split_delta(order: usize, ticks: u64, best: &[u64]) -> SplitDelta {
    SplitDelta {
        order,
        ticks,
        delta_ticks: best.get(order).map(|&b| ticks as i64 - b as i64),
    }
}

/// A delta in seconds with its sign and hundredths, as the HUD shows it: "-0.42", "+1.10".
pub fn format_delta(delta_ticks: i64) -> String {
    let sign = if delta_ticks < 0 { '-' } else { '+' };
    let hundredths = (delta_ticks.unsigned_abs() * 100).div_ceil(TICKS_PER_SECOND as u64);
    format!("{sign}{}.{:02}", hundredths / 100, hundredths % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_compare_with_the_best_run_in_reaching_order() {
        let best = [240, 600];
        assert_eq!(split_delta(0, 180, &best).delta_ticks, Some(-60));
        assert_eq!(split_delta(1, 732, &best).delta_ticks, Some(132));
        assert_eq!(split_delta(2, 900, &best).delta_ticks, None);
        assert_eq!(split_delta(0, 100, &[]).delta_ticks, None);
    }

    #[test]
    fn deltas_read_as_signed_seconds() {
        assert_eq!(format_delta(-60), "-0.50");
        assert_eq!(format_delta(132), "+1.10");
        assert_eq!(format_delta(0), "+0.00");
        // Rounded away from zero: a hair behind never reads as even.
        assert_eq!(format_delta(1), "+0.01");
    }
}
