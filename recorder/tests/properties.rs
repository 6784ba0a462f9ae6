//! Property tests: the reader never panics on any bytes, and writing then reading any events
//! gives them back.

#![forbid(unsafe_code)]
// Test code: a panic is how a failure is reported.
#![allow(clippy::unwrap_used)]

use std::io::Cursor;

use phux_recorder::{CastReader, CastVersion, CastWriter, Event, EventKind, Header};
use proptest::prelude::*;

fn read_all(bytes: Vec<u8>) -> usize {
    match CastReader::from_bufread(Cursor::new(bytes), "p.cast") {
        Ok(reader) => reader.take(10_000).count(),
        Err(error) => {
            // The error and its remedy must render without panicking too.
            let _ = (error.to_string(), error.remedy());
            0
        }
    }
}

fn event_kind() -> impl Strategy<Value = EventKind> {
    prop_oneof![
        any::<String>().prop_map(EventKind::Output),
        any::<String>().prop_map(EventKind::Marker),
        (1u16.., 1u16..).prop_map(|(cols, rows)| EventKind::Resize { cols, rows }),
        any::<i32>().prop_map(EventKind::Exit),
    ]
}

fn events() -> impl Strategy<Value = Vec<Event>> {
    prop::collection::vec((0.0f64..100.0, event_kind()), 0..40).prop_map(|items| {
        let mut time = 0.0;
        items
            .into_iter()
            .map(|(gap, kind)| {
                time += gap;
                Event { time, kind }
            })
            .collect()
    })
}

const HEADERS: [&str; 2] = [
    "{\"version\": 2, \"width\": 80, \"height\": 24}\n",
    "{\"version\": 3, \"term\": {\"cols\": 80, \"rows\": 24}}\n",
];

proptest! {
    #[test]
    fn reader_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        read_all(bytes);
    }

    #[test]
    fn reader_never_panics_after_a_valid_header(
        v3 in any::<bool>(),
        body in prop::collection::vec(
            prop_oneof![
                any::<u8>(),
                prop::sample::select(b"[]\",.0123456789-eE \n#ormix".to_vec()),
            ],
            0..512,
        ),
    ) {
        let mut bytes = HEADERS[usize::from(v3)].as_bytes().to_vec();
        bytes.extend(body);
        read_all(bytes);
    }

    #[test]
    fn events_round_trip_through_write_and_read(v3 in any::<bool>(), events in events()) {
        let (version, tolerance) = if v3 { (CastVersion::V3, 5e-4 + 1e-9) } else { (CastVersion::V2, 5e-7 + 1e-9) };
        let mut writer = CastWriter::from_writer(Vec::new(), &Header::new(version, 80, 24)).unwrap();
        for event in &events {
            writer.write_event(event).unwrap();
        }
        let bytes = writer.finish().unwrap();
        let reader = CastReader::from_bufread(Cursor::new(bytes), "p.cast").unwrap();
        let read: Vec<Event> = reader.collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(read.len(), events.len());
        for (got, want) in read.iter().zip(&events) {
            prop_assert_eq!(&got.kind, &want.kind);
            prop_assert!((got.time - want.time).abs() <= tolerance, "{} vs {}", got.time, want.time);
        }
    }
}
