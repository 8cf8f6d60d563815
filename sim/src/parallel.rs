//! Level objects that step independently (vines, winch ropes, cloths) step on both cores when
//! there is enough of them to pay for it. Each step reads only what is shared and read-only this
//! tick (the geometry, the player, the wind) and writes only its own object, so the order they
//! run in cannot change a bit of the result: the same state on one thread or many, on the
//! desktop and in the browser (which has no threads and runs them in list order).
//! `tests/parallel.rs` checks that.
//!
//! Why a threshold: handing work to a sleeping core is not free. On the project's machine an
//! empty parallel call costs 8.5 µs between back-to-back ticks and 63 µs when the ticks are 8 ms
//! apart, as the game runs them (the other core has gone to sleep), so light levels step on one
//! thread and only scenes of many objects use both.

/// Least work (points × substeps, see `Rope::step_work`, `Cloth::step_work`; about 0.06 µs
/// each) worth spreading over the cores: some 120 µs on one core, twice the wake-up of a core
/// between ticks the game spaces out.
#[cfg(not(target_arch = "wasm32"))]
pub const MIN_PARALLEL_WORK: usize = 2000;

/// Calls `step(index, item)` for every item: on both cores when the items' `work` adds up to
/// `MIN_PARALLEL_WORK`, in order on this thread otherwise.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn each_mut<T: Send>(
    items: &mut [T],
    work: impl Fn(&T) -> usize,
    step: impl Fn(usize, &mut T) + Sync + Send,
) {
    use rayon::prelude::*;
    if items.iter().map(work).sum::<usize>() < MIN_PARALLEL_WORK {
        items
            .iter_mut()
            .enumerate()
            .for_each(|(i, item)| step(i, item));
    } else {
        items
            .par_iter_mut()
            .enumerate()
            .for_each(|(i, item)| step(i, item));
    }
}

/// Calls `step` on all of `items` when their `work` adds up to less than `MIN_PARALLEL_WORK`;
/// otherwise on its two halves by work, side by side (for steps that group items among
/// themselves).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn halves_mut<T: Send>(
    items: &mut [T],
    work: impl Fn(&T) -> usize,
    step: impl Fn(&mut [T]) + Sync + Send,
) {
    let total: usize = items.iter().map(&work).sum();
    if total < MIN_PARALLEL_WORK {
        step(items);
        return;
    }
    // The first half ends where the work done reaches half of it.
    let mut done = 0;
    let middle = items
        .iter()
        .position(|item| {
            done += work(item);
            2 * done >= total
        })
        .map_or(items.len(), |i| i + 1);
    let (a, b) = items.split_at_mut(middle);
    rayon::join(|| step(a), || step(b));
}

/// Runs `a` and `b` (which touch nothing in common) side by side when `work` is at least
/// `MIN_PARALLEL_WORK`, one after the other otherwise.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn join(work: usize, a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    if work < MIN_PARALLEL_WORK {
        a();
        b();
    } else {
        rayon::join(a, b);
    }
}

/// Runs `a` then `b` (the browser build has one thread).
#[cfg(target_arch = "wasm32")]
pub(crate) fn join(_work: usize, a: impl FnOnce(), b: impl FnOnce()) {
    a();
    b();
}

/// Calls `step(index, item)` for every item, in order (the browser build has one thread).
#[cfg(target_arch = "wasm32")]
pub(crate) fn each_mut<T>(
    items: &mut [T],
    _work: impl Fn(&T) -> usize,
    step: impl Fn(usize, &mut T),
) {
    for (i, item) in items.iter_mut().enumerate() {
        step(i, item);
    }
}

/// Calls `step` on all of `items` (the browser build has one thread).
#[cfg(target_arch = "wasm32")]
pub(crate) fn halves_mut<T>(items: &mut [T], _work: impl Fn(&T) -> usize, step: impl Fn(&mut [T])) {
    step(items);
}
