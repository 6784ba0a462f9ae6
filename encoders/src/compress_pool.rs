//! Compresses a writer's frames on every core while they are written in order: the jobs go
//! out numbered, come back in any order, and are handed back in the order they went out.

use std::collections::BTreeMap;
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::error::EncodeError;

/// What a pool runs: jobs that may be compressed on any thread, in any order.
pub trait Compress {
    /// Something ready to compress.
    type Job: Send + 'static;
    /// What compressing it made.
    type Done: Send + 'static;
    /// What one compression thread keeps from one job to the next (its tables).
    type Compressor: Send + 'static;

    /// A new compressor, for one thread.
    fn compressor(&self) -> Self::Compressor;
    /// Compresses `job`.
    fn compress(compressor: &mut Self::Compressor, job: Self::Job) -> Self::Done;
}

/// Jobs queued or being compressed per compression thread: enough that none waits for work,
/// few enough that the frames held stay a few screens.
const IN_FLIGHT_PER_THREAD: usize = 2;

/// The most compression threads a writer gets, however many cores there are: each holds its
/// tables (2 MiB for a frame of 256 colours) and two frames in flight (a few MB each for a
/// 120x36 screen), and the frames' preparation, in order on one thread, bounds the gain past a
/// few (a fifth of a busy recording's work).
const MAX_THREADS: usize = 4;

/// The compression threads a writer gets on this machine: one per core, at most
/// [`MAX_THREADS`].
pub fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(MAX_THREADS)
}

/// Where a writer's jobs are compressed: on the writer's thread, or on a pool of threads.
pub enum Compression<W: Compress> {
    /// One after the other, on the caller's thread.
    Here(W::Compressor),
    Pool(Pool<W>),
}

impl<W: Compress> Compression<W> {
    /// A pool of `threads` compressors made by `writer` (at most [`MAX_THREADS`]), or the
    /// caller's thread alone when there is one core (or no thread can be started).
    pub fn start(writer: &W, threads: usize) -> Self {
        let threads = threads.min(MAX_THREADS);
        if threads < 2 {
            return Compression::Here(writer.compressor());
        }
        match Pool::start(writer, threads) {
            Some(pool) => Compression::Pool(pool),
            None => Compression::Here(writer.compressor()),
        }
    }

    /// Queues `job`; returns the jobs done so far that are next in order (waiting for the
    /// oldest while too many are in flight).
    pub fn submit(&mut self, job: W::Job) -> Result<Vec<W::Done>, EncodeError> {
        match self {
            Compression::Here(compressor) => Ok(vec![W::compress(compressor, job)]),
            Compression::Pool(pool) => pool.submit(job),
        }
    }

    /// Every job still in flight, in order.
    pub fn drain(&mut self) -> Result<Vec<W::Done>, EncodeError> {
        match self {
            Compression::Here(_) => Ok(Vec::new()),
            Compression::Pool(pool) => pool.drain(),
        }
    }
}

type Numbered<T> = (u64, T);
/// A job's result, or `None` when compressing it panicked.
type Outcome<W> = Numbered<Option<<W as Compress>::Done>>;

/// Compression threads sharing one queue of numbered jobs.
pub struct Pool<W: Compress> {
    jobs: Option<SyncSender<Numbered<W::Job>>>,
    done: Receiver<Outcome<W>>,
    threads: Vec<JoinHandle<()>>,
    /// The number the next job gets.
    sent: u64,
    /// The number of the next job to hand back.
    next: u64,
    /// Jobs done ahead of one still in flight.
    early: BTreeMap<u64, W::Done>,
    limit: usize,
}

impl<W: Compress> Pool<W> {
    fn start(writer: &W, threads: usize) -> Option<Self> {
        let limit = threads * IN_FLIGHT_PER_THREAD;
        let (jobs, queue) = sync_channel::<Numbered<W::Job>>(limit);
        let queue = Arc::new(Mutex::new(queue));
        let (done_tx, done) = channel();
        let mut handles = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (queue, done_tx) = (Arc::clone(&queue), done_tx.clone());
            let mut compressor = writer.compressor();
            let spawned = std::thread::Builder::new()
                .name("phux-compress".into())
                .spawn(move || compress_jobs::<W>(&queue, &done_tx, &mut compressor));
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(_) if handles.len() >= 2 => break,
                // Fewer than two threads is no pool: the caller compresses on its own.
                Err(_) => {
                    drop(jobs);
                    for handle in handles {
                        let _ = handle.join();
                    }
                    return None;
                }
            }
        }
        Some(Pool {
            jobs: Some(jobs),
            done,
            threads: handles,
            sent: 0,
            next: 0,
            early: BTreeMap::new(),
            limit,
        })
    }

    fn submit(&mut self, job: W::Job) -> Result<Vec<W::Done>, EncodeError> {
        let queue = self.jobs.as_ref().ok_or(EncodeError::WorkerDied)?;
        queue
            .send((self.sent, job))
            .map_err(|_| EncodeError::WorkerDied)?;
        self.sent += 1;
        let mut ready = Vec::new();
        // Take what has come back without waiting, then wait while too many are in flight.
        while let Ok(outcome) = self.done.try_recv() {
            self.arrived(outcome, &mut ready)?;
        }
        while self.in_flight() >= self.limit {
            let outcome = self.done.recv().map_err(|_| EncodeError::WorkerDied)?;
            self.arrived(outcome, &mut ready)?;
        }
        Ok(ready)
    }

    fn drain(&mut self) -> Result<Vec<W::Done>, EncodeError> {
        let mut ready = Vec::new();
        while self.next < self.sent {
            let outcome = self.done.recv().map_err(|_| EncodeError::WorkerDied)?;
            self.arrived(outcome, &mut ready)?;
        }
        Ok(ready)
    }

    /// Jobs sent and not yet handed back.
    fn in_flight(&self) -> usize {
        usize::try_from(self.sent - self.next).unwrap_or(usize::MAX)
    }

    /// Files `outcome` and moves every job now next in order to `ready`.
    fn arrived(
        &mut self,
        (number, done): Outcome<W>,
        ready: &mut Vec<W::Done>,
    ) -> Result<(), EncodeError> {
        self.early
            .insert(number, done.ok_or(EncodeError::WorkerDied)?);
        while let Some(done) = self.early.remove(&self.next) {
            ready.push(done);
            self.next += 1;
        }
        Ok(())
    }
}

impl<W: Compress> Drop for Pool<W> {
    /// Closes the queue and waits for the threads, which end after the job each is on.
    fn drop(&mut self) {
        self.jobs = None;
        for handle in self.threads.drain(..) {
            let _ = handle.join();
        }
    }
}

/// A compression thread: takes the next job until the queue closes; a job that panics is
/// reported as such (the writer then fails) rather than left for ever in flight.
fn compress_jobs<W: Compress>(
    queue: &Mutex<Receiver<Numbered<W::Job>>>,
    done: &std::sync::mpsc::Sender<Outcome<W>>,
    compressor: &mut W::Compressor,
) {
    loop {
        let next = queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv();
        let Ok((number, job)) = next else {
            return;
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            W::compress(compressor, job)
        }));
        if done.send((number, result.ok())).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Jobs that take longer the earlier they are sent (so they come back out of order), and
    /// one that panics when asked.
    struct Slow {
        panic_on: Option<u64>,
    }

    impl Compress for Slow {
        type Job = u64;
        type Done = u64;
        type Compressor = Option<u64>;

        fn compressor(&self) -> Option<u64> {
            self.panic_on
        }
        fn compress(panic_on: &mut Option<u64>, job: u64) -> u64 {
            assert_ne!(Some(job), *panic_on, "the job set to panic");
            std::thread::sleep(Duration::from_millis(5 * (6 - job % 6)));
            job
        }
    }

    #[test]
    fn jobs_come_back_in_the_order_they_were_sent() {
        let writer = Slow { panic_on: None };
        let mut pool = Compression::start(&writer, 3);
        assert!(matches!(pool, Compression::Pool(_)));
        let mut back = Vec::new();
        for job in 0..20 {
            back.extend(pool.submit(job).unwrap());
            // Never more than the limit in flight: what came back trails what went out.
            assert!(job + 1 - back.len() as u64 <= (3 * IN_FLIGHT_PER_THREAD) as u64);
        }
        back.extend(pool.drain().unwrap());
        assert_eq!(back, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn a_job_that_panics_fails_the_writer_instead_of_hanging_it() {
        let writer = Slow { panic_on: Some(4) };
        let mut pool = Compression::start(&writer, 3);
        let mut outcome = Ok(());
        for job in 0..10 {
            if let Err(e) = pool.submit(job) {
                outcome = Err(e);
                break;
            }
        }
        let outcome = outcome.and_then(|()| pool.drain().map(drop));
        assert!(
            matches!(outcome, Err(EncodeError::WorkerDied)),
            "{outcome:?}"
        );
    }
}
