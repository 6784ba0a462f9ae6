//! Background runs: `phux_run` with `background: true` starts the command and answers at once
//! with a job id; `phux_job` collects it (waiting up to `wait_secs`). The command is typed
//! before the first answer, so nothing it does can fall between two calls, and its exit code
//! is kept until collected. Jobs live in this `phux mcp` process.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use phux_client::failure::Failure;
use phux_client::verbs::run::{self, RunOptions};
use phux_client::Context;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::schema::{number, object, string};
use crate::tools::{invalid_argument, to_value, Call, Document, Tool};

/// Finished jobs kept for collection; the oldest go first.
const KEEP_FINISHED: usize = 64;
/// Runs in flight at once.
const MAX_RUNNING: usize = 32;
/// How long a background run's answer waits for the command to be typed.
const TYPED_WITHIN: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
enum JobState {
    Running,
    /// The RunResult, or the error document.
    Done {
        result: Result<Value, Value>,
    },
}

#[derive(Debug, Default)]
struct Jobs {
    next: u64,
    table: HashMap<String, (JobState, String, String)>,
    finished: VecDeque<String>,
}

fn registry() -> &'static (Mutex<Jobs>, Condvar) {
    static JOBS: OnceLock<(Mutex<Jobs>, Condvar)> = OnceLock::new();
    JOBS.get_or_init(|| (Mutex::new(Jobs::default()), Condvar::new()))
}

fn lock() -> MutexGuard<'static, Jobs> {
    registry().0.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts `args` in the background; the answer names the job.
pub fn start(args: RunOptions, context: &Context) -> Result<Document, Failure> {
    let target = args.target.clone();
    let command = args.command.join(" ");
    let id = {
        let mut jobs = lock();
        let running = jobs
            .table
            .values()
            .filter(|(s, _, _)| matches!(s, JobState::Running))
            .count();
        if running >= MAX_RUNNING {
            return Err(Failure::new(
                phux_core::error_code::ErrorCode::TargetBusy,
                format!("{running} background runs are in flight, the most this adapter keeps"),
                "collect one with phux_job first",
            ));
        }
        jobs.next += 1;
        let id = format!("job-{}", jobs.next);
        jobs.table.insert(
            id.clone(),
            (JobState::Running, target.clone(), command.clone()),
        );
        id
    };
    let context = context.clone();
    let job = id.clone();
    let (typed_tx, typed) = crossbeam_channel::bounded(1);
    let spawned = std::thread::Builder::new()
        .name(format!("phux-mcp-{id}"))
        .spawn(move || {
            phux_client::run::tell_when_typed(typed_tx);
            let result = run::run_in_pane(args, &context, None)
                .and_then(super::drive::fit_run_result)
                .map_err(|failure| serde_json::to_value(failure.document()).unwrap_or_default())
                .and_then(|doc| serde_json::to_value(doc).map_err(|e| json!(e.to_string())));
            finish(&job, result);
        });
    if let Err(e) = spawned {
        finish(&id, Err(json!(format!("cannot start the run: {e}"))));
    }
    // Answer once the command is in the pane (or the run ended before typing: refused).
    let _ = typed.recv_timeout(TYPED_WITHIN);
    if let Some((JobState::Done { result: Err(error) }, _, _)) = lock().table.get(&id).cloned() {
        if let Ok(doc) = serde_json::from_value::<phux_core::error_doc::ErrorDoc>(error) {
            return Err(Failure::new(doc.error.code, doc.error.message, doc.remedy)
                .with_exit_code(doc.exit_code));
        }
    }
    to_value(&json!({
        "schema_version": 1,
        "job": id,
        "state": "running",
        "target": target,
        "command": command,
    }))
}

fn finish(id: &str, result: Result<Value, Value>) {
    let mut jobs = lock();
    if let Some(entry) = jobs.table.get_mut(id) {
        entry.0 = JobState::Done { result };
    }
    jobs.finished.push_back(id.to_owned());
    while jobs.finished.len() > KEEP_FINISHED {
        if let Some(old) = jobs.finished.pop_front() {
            jobs.table.remove(&old);
        }
    }
    registry().1.notify_all();
}

pub fn tools() -> Vec<Tool> {
    vec![Tool {
        name: "phux_job",
        description: "Collect a background run (phux_run with background: true): waits up to wait_secs for it to end. Returns {schema_version, job, state: running|done, target, command, result (the RunResult, when done and it completed), error (the error document, when it failed)}.",
        schema: || {
            object(
                &["job"],
                vec![
                    ("job", string("The job id phux_run returned")),
                    ("wait_secs", number("Wait this long for it to end [default: 0, answer at once]", 0.0, 600.0)),
                ],
            )
        },
        call: collect,
    }]
}

#[derive(Deserialize)]
struct JobArgs {
    job: String,
    wait_secs: Option<f64>,
}

fn collect(call: &Call) -> Result<Document, Failure> {
    let args: JobArgs = call.parse()?;
    let until = Instant::now() + Duration::from_secs_f64(args.wait_secs.unwrap_or(0.0).max(0.0));
    let mut jobs = lock();
    loop {
        let Some((state, target, command)) = jobs.table.get(&args.job).cloned() else {
            return Err(invalid_argument(format!(
                "no job {:?} (finished jobs are kept until {KEEP_FINISHED} newer ones finish)",
                args.job
            )));
        };
        let left = until.saturating_duration_since(Instant::now());
        match state {
            JobState::Done { result } => {
                let (result, error) = match result {
                    Ok(result) => (result, Value::Null),
                    Err(error) => (Value::Null, error),
                };
                return to_value(&json!({
                    "schema_version": 1,
                    "job": args.job,
                    "state": "done",
                    "target": target,
                    "command": command,
                    "result": result,
                    "error": error,
                }));
            }
            JobState::Running if left.is_zero() || call.stop.is_pressed() => {
                return to_value(&json!({
                    "schema_version": 1,
                    "job": args.job,
                    "state": "running",
                    "target": target,
                    "command": command,
                }));
            }
            JobState::Running => {
                let wait = left.min(Duration::from_millis(200));
                jobs = registry()
                    .1
                    .wait_timeout(jobs, wait)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        }
    }
}
