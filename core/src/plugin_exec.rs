//! Running a plugin's command (an action for `config run`, an event hook in the server): argv
//! directly (no shell), in its own process group, output captured (and echoed live when asked),
//! an optional stdin document, and a time limit after which the whole group is killed.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, RecvTimeoutError};

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct PluginCommand {
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    /// Added to the inherited environment.
    pub env: Vec<(String, String)>,
    /// Written to the command's stdin, then closed; `None` gives it /dev/null.
    pub stdin: Option<Vec<u8>>,
    pub timeout: Option<Duration>,
    /// Copy the command's stdout and stderr to ours as they arrive.
    pub echo: bool,
    /// Once set, the whole group is killed as at the time limit (an MCP client cancelling).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How often a command that can be cancelled checks its flag.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// How it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub timed_out: bool,
    /// `None` on a timeout or an end by signal.
    pub exit_code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub duration: Duration,
}

/// Runs `command` to its end or its time limit. An error only when it could not start.
pub fn run(command: &PluginCommand) -> std::io::Result<Finished> {
    let Some((program, args)) = command.argv.split_first() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "empty command",
        ));
    };
    let started = Instant::now();
    let mut child = {
        use std::os::unix::process::CommandExt;
        Command::new(program)
            .args(args)
            .current_dir(&command.cwd)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .stdin(if command.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?
    };
    let pid = child.id();
    if let (Some(mut stdin), Some(bytes)) = (child.stdin.take(), command.stdin.clone()) {
        // A command that never reads its stdin must not block us: write from a thread.
        thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let stdout = child
        .stdout
        .take()
        .map(|r| drain(r, command.echo.then(|| Box::new(std::io::stdout()) as Sink)));
    let stderr = child
        .stderr
        .take()
        .map(|r| drain(r, command.echo.then(|| Box::new(std::io::stderr()) as Sink)));
    let (done_tx, done_rx) = bounded(1);
    thread::spawn(move || {
        let _ = done_tx.send(child.wait());
    });
    let deadline = command.timeout.map(|limit| started + limit);
    let slice = if command.cancel.is_some() {
        CANCEL_POLL
    } else {
        Duration::from_secs(3600)
    };
    let (timed_out, status) = loop {
        let wait = deadline.map_or(slice, |d| {
            d.saturating_duration_since(Instant::now()).min(slice)
        });
        match done_rx.recv_timeout(wait) {
            Ok(status) => break (false, Some(status?)),
            Err(RecvTimeoutError::Timeout) => {
                let cancelled = command
                    .cancel
                    .as_ref()
                    .is_some_and(|flag| flag.load(Ordering::SeqCst));
                if cancelled || deadline.is_some_and(|d| Instant::now() >= d) {
                    kill_group(pid);
                    let _ = done_rx.recv();
                    break (true, None);
                }
            }
            Err(RecvTimeoutError::Disconnected) => break (false, None),
        }
    };
    // The group may hold our pipes open (a background child): end it so the drains finish.
    kill_group(pid);
    let collect =
        |h: Option<thread::JoinHandle<Vec<u8>>>| h.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Finished {
        timed_out,
        exit_code: status.and_then(|s| s.code()),
        stdout: collect(stdout),
        stderr: collect(stderr),
        duration: started.elapsed(),
    })
}

type Sink = Box<dyn Write + Send>;

/// Reads `reader` to its end on a thread, copying to `echo` as it goes.
fn drain(
    mut reader: impl Read + Send + 'static,
    mut echo: Option<Sink>,
) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut all = Vec::new();
        let mut buffer = [0u8; 8192];
        loop {
            match reader.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if let Some(sink) = echo.as_mut() {
                        let _ = sink.write_all(&buffer[..n]);
                        let _ = sink.flush();
                    }
                    all.extend_from_slice(&buffer[..n]);
                }
            }
        }
        all
    })
}

fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, timeout: Option<Duration>) -> Finished {
        run(&PluginCommand {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            cwd: std::env::temp_dir(),
            env: vec![("HOOK_VALUE".into(), "v".into())],
            stdin: Some(b"{\"event\":1}".to_vec()),
            timeout,
            echo: false,
            cancel: None,
        })
        .unwrap()
    }

    #[test]
    fn output_status_env_and_stdin_come_back() {
        let done = sh("cat; echo \" $HOOK_VALUE\"; echo err >&2; exit 3", None);
        assert_eq!(done.exit_code, Some(3));
        assert!(!done.timed_out);
        assert_eq!(String::from_utf8_lossy(&done.stdout), "{\"event\":1} v\n");
        assert_eq!(String::from_utf8_lossy(&done.stderr), "err\n");
    }

    #[test]
    fn a_command_past_its_limit_is_killed_with_its_children() {
        let done = sh("sleep 30 & sleep 30", Some(Duration::from_millis(200)));
        assert!(done.timed_out);
        assert_eq!(done.exit_code, None);
        assert!(done.duration < Duration::from_secs(10));
    }

    #[test]
    fn a_cancelled_command_is_killed_with_its_children() {
        let flag = Arc::new(AtomicBool::new(false));
        let setter = Arc::clone(&flag);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(200));
            setter.store(true, Ordering::SeqCst);
        });
        let done = run(&PluginCommand {
            argv: vec!["sh".into(), "-c".into(), "sleep 30 & sleep 30".into()],
            cwd: std::env::temp_dir(),
            timeout: Some(Duration::from_secs(60)),
            cancel: Some(flag),
            ..PluginCommand::default()
        })
        .unwrap();
        assert!(done.timed_out);
        assert!(
            done.duration < Duration::from_secs(10),
            "{:?}",
            done.duration
        );
    }
}
