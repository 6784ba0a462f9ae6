//! Work over a list spread across the machine's cores, the results in the list's order. A
//! hand-off snapshots and restores every pane while their output goes unread: on two cores
//! that takes about half the time it takes on one.

use std::num::NonZeroUsize;
use std::sync::{Mutex, PoisonError};

/// More threads than this would only wait on each other (and on the engine's allocator).
const MAX_WORKERS: usize = 8;

/// `work` applied to every item, on up to one thread per core (this one among them).
/// Items are handed out one at a time, so a large one does not leave the other threads idle.
pub fn map<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let workers = cores.min(MAX_WORKERS).min(items.len());
    if workers <= 1 {
        return items.into_iter().map(work).collect();
    }
    let count = items.len();
    let queue = Mutex::new(items.into_iter().enumerate());
    let done = Mutex::new(Vec::with_capacity(count));
    let drain = || loop {
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        let Some((at, item)) = next else { return };
        let result = work(item);
        (done.lock().unwrap_or_else(PoisonError::into_inner)).push((at, result));
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            // A thread that cannot start leaves its share to the others (this one at least).
            let _ = std::thread::Builder::new()
                .name("handoff-worker".into())
                .spawn_scoped(scope, drain);
        }
        drain();
    });
    let mut done = done.into_inner().unwrap_or_else(PoisonError::into_inner);
    done.sort_unstable_by_key(|(at, _)| *at);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<u64> = (0..100).collect();
        let squares = map(items, |n| {
            std::thread::sleep(std::time::Duration::from_micros(100 - n));
            n * n
        });
        assert_eq!(squares, (0..100).map(|n| n * n).collect::<Vec<_>>());
        assert!(map(Vec::<u8>::new(), |n| n).is_empty());
    }
}
