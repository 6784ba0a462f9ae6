//! Pacing checked on a virtual clock: every write is stamped with the virtual time it happened
//! at, so deadlines are compared exactly and no test depends on the machine's speed.

use std::cell::Cell;
use std::io;
use std::rc::Rc;

use phux_recorder::{CastVersion, Header};

use super::*;

struct VirtualClock {
    now: Rc<Cell<Instant>>,
}

impl Clock for VirtualClock {
    fn now(&mut self) -> Instant {
        self.now.get()
    }
    fn sleep_until(&mut self, deadline: Instant) {
        if deadline > self.now.get() {
            self.now.set(deadline);
        }
    }
}

#[derive(Debug, PartialEq)]
enum Seen {
    Write(f64, String),
    Resize(f64, u16, u16),
}

struct RecordingSink {
    origin: Instant,
    now: Rc<Cell<Instant>>,
    seen: Vec<Seen>,
}

impl RecordingSink {
    fn at(&self) -> f64 {
        // Microsecond rounding keeps float noise out of the comparisons.
        ((self.now.get() - self.origin).as_secs_f64() * 1e6).round() / 1e6
    }
}

impl Write for RecordingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let at = self.at();
        let text = String::from_utf8_lossy(buf).into_owned();
        self.seen.push(Seen::Write(at, text));
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl PlaybackSink for RecordingSink {
    fn resize(&mut self, cols: u16, rows: u16) {
        let at = self.at();
        self.seen.push(Seen::Resize(at, cols, rows));
    }
}

fn cast(events: Vec<Event>) -> Cast {
    Cast {
        header: Header::new(CastVersion::V2, 80, 24),
        events,
    }
}

fn play(cast: &Cast, options: &PlayOptions) -> Vec<Seen> {
    let now = Rc::new(Cell::new(Instant::now()));
    let mut sink = RecordingSink {
        origin: now.get(),
        now: now.clone(),
        seen: Vec::new(),
    };
    let mut clock = VirtualClock { now };
    play_cast(cast, options, &mut sink, &mut clock).unwrap();
    sink.seen
}

fn w(at: f64, text: &str) -> Seen {
    Seen::Write(at, text.to_owned())
}

#[test]
fn events_are_written_at_clamped_times_divided_by_speed() {
    let events = vec![
        Event::output(0.5, "a"),
        Event::output(1.0, "b"),
        Event::output(11.0, "c"),
    ];
    let options = PlayOptions {
        speed: 2.0,
        ..PlayOptions::new(Some(2.0))
    };
    assert_eq!(
        play(&cast(events), &options),
        [w(0.25, "a"), w(0.5, "b"), w(1.5, "c")]
    );
}

#[test]
fn only_output_is_written_and_only_resizes_reach_the_callback() {
    let events = vec![
        Event::output(0.1, "a"),
        Event::new(0.2, EventKind::Input("rm -rf /\r".into())),
        Event::marker(0.3, "chapter"),
        Event::new(
            0.4,
            EventKind::Resize {
                cols: 100,
                rows: 30,
            },
        ),
        Event::new(0.5, EventKind::Exit(0)),
        Event::output(0.6, "b"),
    ];
    assert_eq!(
        play(&cast(events), &PlayOptions::new(None)),
        [w(0.1, "a"), Seen::Resize(0.4, 100, 30), w(0.6, "b")]
    );
}

#[test]
fn events_at_the_same_instant_are_neither_dropped_nor_merged_at_top_speed() {
    let events: Vec<Event> = (0..50)
        .map(|i| Event::output(f64::from(i) * 0.001, format!("{i};")))
        .collect();
    let options = PlayOptions {
        speed: MAX_SPEED_FOR_TEST,
        ..PlayOptions::new(None)
    };
    let seen = play(&cast(events), &options);
    assert_eq!(seen.len(), 50);
    for (i, seen) in seen.iter().enumerate() {
        let Seen::Write(at, text) = seen else {
            panic!("{seen:?}")
        };
        assert_eq!(text, &format!("{i};"));
        assert!((at - i as f64 * 0.00001).abs() < 2e-6, "{at}");
    }
}

const MAX_SPEED_FOR_TEST: f64 = crate::options::MAX_SPEED;

#[test]
fn a_second_pass_starts_with_a_soft_reset_and_the_recording_s_size() {
    let events = vec![
        Event::output(1.0, "x"),
        Event::new(2.0, EventKind::Resize { cols: 40, rows: 10 }),
    ];
    let options = PlayOptions {
        passes: Passes::Count(2),
        ..PlayOptions::new(None)
    };
    let reset = String::from_utf8_lossy(SOFT_RESET_AND_CLEAR).into_owned();
    assert_eq!(
        play(&cast(events), &options),
        [
            w(1.0, "x"),
            Seen::Resize(2.0, 40, 10),
            w(2.0, &reset),
            Seen::Resize(2.0, 80, 24),
            w(3.0, "x"),
            Seen::Resize(4.0, 40, 10),
        ]
    );
}

#[test]
fn start_writes_what_comes_before_at_once_and_paces_the_rest_from_there() {
    let events = vec![
        Event::output(1.0, "a"),
        Event::output(30.0, "b"),
        Event::output(31.0, "c"),
        Event::output(33.0, "d"),
    ];
    // Clamped at 2 s: a=1, b=3, c=4, d=6. Starting at 3.5: a and b at once, c 0.5 s later.
    let options = PlayOptions {
        start: StartPoint::At(3.5),
        ..PlayOptions::new(Some(2.0))
    };
    assert_eq!(
        play(&cast(events), &options),
        [w(0.0, "a"), w(0.0, "b"), w(0.5, "c"), w(2.5, "d")]
    );
}

#[test]
fn start_is_read_at_speed_one_whatever_the_speed() {
    let events = vec![Event::output(1.0, "a"), Event::output(4.0, "b")];
    let options = PlayOptions {
        speed: 2.0,
        start: StartPoint::At(2.0),
        ..PlayOptions::new(None)
    };
    assert_eq!(play(&cast(events), &options), [w(0.0, "a"), w(1.0, "b")]);
}

#[test]
fn marker_starts_at_the_first_marker_with_that_label() {
    let events = vec![
        Event::output(1.0, "a"),
        Event::marker(2.0, "other"),
        Event::output(3.0, "b"),
        Event::marker(4.0, "here"),
        Event::output(5.0, "c"),
        Event::marker(6.0, "here"),
        Event::output(7.0, "d"),
    ];
    let options = PlayOptions {
        start: StartPoint::Marker("here".into()),
        ..PlayOptions::new(None)
    };
    assert_eq!(
        play(&cast(events), &options),
        [w(0.0, "a"), w(0.0, "b"), w(1.0, "c"), w(3.0, "d")]
    );
}

#[test]
fn an_unknown_marker_is_refused_before_anything_is_written() {
    let options = PlayOptions {
        start: StartPoint::Marker("nope".into()),
        ..PlayOptions::new(None)
    };
    let now = Rc::new(Cell::new(Instant::now()));
    let mut sink = RecordingSink {
        origin: now.get(),
        now: now.clone(),
        seen: Vec::new(),
    };
    let events = vec![Event::output(1.0, "a")];
    let result = play_cast(
        &cast(events),
        &options,
        &mut sink,
        &mut VirtualClock { now },
    );
    assert!(matches!(result, Err(PlayError::NoSuchMarker(_))));
    assert!(sink.seen.is_empty());
}

#[test]
fn a_late_write_does_not_delay_the_events_after_it() {
    // The clock jumps 0.7 s past the first deadline (a slow write); the second event keeps its
    // own deadline instead of inheriting the delay.
    struct LateClock {
        inner: VirtualClock,
        late_once: bool,
    }
    impl Clock for LateClock {
        fn now(&mut self) -> Instant {
            self.inner.now()
        }
        fn sleep_until(&mut self, deadline: Instant) {
            self.inner.sleep_until(deadline);
            if std::mem::take(&mut self.late_once) {
                let now = self.inner.now.get();
                self.inner.now.set(now + Duration::from_millis(700));
            }
        }
    }
    let now = Rc::new(Cell::new(Instant::now()));
    let mut sink = RecordingSink {
        origin: now.get(),
        now: now.clone(),
        seen: Vec::new(),
    };
    let mut clock = LateClock {
        inner: VirtualClock { now },
        late_once: true,
    };
    let events = vec![Event::output(1.0, "a"), Event::output(2.0, "b")];
    play_cast(
        &cast(events),
        &PlayOptions::new(None),
        &mut sink,
        &mut clock,
    )
    .unwrap();
    assert_eq!(sink.seen, [w(1.7, "a"), w(2.0, "b")]);
}

#[test]
fn pass_duration_counts_from_the_starting_point_after_clamp_and_speed() {
    let events = vec![
        Event::output(1.0, "a"),
        Event::marker(2.0, "m"),
        Event::output(30.0, "b"),
    ];
    let at = |start, speed| PlayOptions {
        speed,
        start,
        ..PlayOptions::new(Some(2.0))
    };
    // Clamped: a=1, m=2, b=4.
    assert_eq!(
        pass_duration(&events, &at(StartPoint::Beginning, 1.0)).unwrap(),
        4.0
    );
    assert_eq!(
        pass_duration(&events, &at(StartPoint::Beginning, 4.0)).unwrap(),
        1.0
    );
    assert_eq!(
        pass_duration(&events, &at(StartPoint::At(3.0), 2.0)).unwrap(),
        0.5
    );
    assert_eq!(
        pass_duration(&events, &at(StartPoint::Marker("m".into()), 1.0)).unwrap(),
        2.0
    );
    assert!(pass_duration(&events, &at(StartPoint::Marker("x".into()), 1.0)).is_err());
}
