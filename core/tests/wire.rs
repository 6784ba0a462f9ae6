//! Frame reading and writing, tolerance of unknown messages and fields, and the handshake.

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::ids::PaneId;
use phux_core::wire::*;

fn frame_bytes(len: u32, rest: &[u8]) -> Vec<u8> {
    let mut v = len.to_be_bytes().to_vec();
    v.extend_from_slice(rest);
    v
}

#[test]
fn frames_round_trip_through_writer_and_reader() {
    let mut writer = FrameWriter::new(Vec::new());
    writer
        .send(&ClientMessage::GetState(IdOnly { id: 1 }))
        .unwrap();
    let chunk = OutputChunk {
        pane: 7,
        seq: 1,
        t_ns: 99,
        bytes: vec![0, 1, 2, 255],
    };
    writer.write_frame(&Frame::Output(chunk.clone())).unwrap();
    let bytes = writer.into_inner();
    let mut reader = FrameReader::new(bytes.as_slice());
    assert_eq!(
        reader.read_message::<ClientMessage>().unwrap(),
        ClientMessage::GetState(IdOnly { id: 1 })
    );
    assert_eq!(reader.read_frame().unwrap(), Frame::Output(chunk));
    assert!(matches!(reader.read_frame(), Err(WireError::Closed)));
}

#[test]
fn a_length_over_the_limit_is_refused_before_reading() {
    let bytes = frame_bytes(MAX_FRAME_LEN + 1, &[KIND_JSON]);
    assert!(matches!(
        FrameReader::new(bytes.as_slice()).read_frame(),
        Err(WireError::TooLarge { .. })
    ));
    let at_limit = Frame::Unknown {
        kind: 9,
        payload: vec![0; MAX_FRAME_LEN as usize],
    };
    assert!(
        matches!(at_limit.encode(), Err(WireError::TooLarge { .. })),
        "the kind byte counts"
    );
}

#[test]
fn a_stream_ending_inside_a_frame_is_truncated_not_closed() {
    let cases = [vec![0u8, 0], frame_bytes(10, b"\x01{\"a\"")];
    for bytes in cases {
        assert!(
            matches!(
                FrameReader::new(bytes.as_slice()).read_frame(),
                Err(WireError::Truncated { .. })
            ),
            "{bytes:?}"
        );
    }
}

#[test]
fn empty_frames_and_short_output_chunks_are_malformed() {
    for bytes in [
        frame_bytes(0, &[]),
        frame_bytes(5, &[KIND_OUTPUT, 0, 0, 0, 1]),
    ] {
        assert!(matches!(
            FrameReader::new(bytes.as_slice()).read_frame(),
            Err(WireError::Malformed(_))
        ));
    }
}

#[test]
fn unknown_frame_kinds_are_skipped_by_length() {
    let mut bytes = frame_bytes(3, &[0x7f, 1, 2]);
    bytes.extend(
        Frame::json(&ClientMessage::Status(IdOnly { id: 4 }))
            .unwrap()
            .encode()
            .unwrap(),
    );
    let mut reader = FrameReader::new(bytes.as_slice());
    assert_eq!(
        reader.read_frame().unwrap(),
        Frame::Unknown {
            kind: 0x7f,
            payload: vec![1, 2]
        }
    );
    assert_eq!(
        reader.read_message::<ClientMessage>().unwrap(),
        ClientMessage::Status(IdOnly { id: 4 })
    );
}

#[test]
fn unknown_message_types_decode_to_unknown_and_unknown_fields_are_ignored() {
    let m: ClientMessage =
        serde_json::from_str(r#"{"type":"teleport","id":3,"where":"mars"}"#).unwrap();
    assert_eq!(m, ClientMessage::Unknown);
    assert_eq!(m.id(), None);
    let m: ClientMessage =
        serde_json::from_str(r#"{"type":"resize","id":3,"pane":1,"cols":2,"rows":3,"why":"x"}"#)
            .unwrap();
    assert_eq!(m.id(), Some(3));
    let s: ServerMessage = serde_json::from_str(r#"{"type":"hologram"}"#).unwrap();
    assert_eq!(s, ServerMessage::Unknown);
}

#[test]
fn bad_json_is_a_typed_error() {
    let frame = Frame::Json(b"{not json".to_vec());
    assert!(matches!(
        frame.decode::<ClientMessage>(),
        Err(WireError::BadJson(_))
    ));
    assert_eq!(WireError::Closed.code(), ErrorCode::ServerDisconnected);
}

#[test]
fn responses_carry_a_payload_or_an_error() {
    let ok = Response::ok(1, &PaneId(3)).unwrap();
    assert_eq!(ok.into_result::<PaneId>().unwrap(), Ok(PaneId(3)));
    let err = Response::error(2, WireErrorBody::new(ErrorCode::NoSuchTarget, "m", "r"));
    let body = err.into_result::<PaneId>().unwrap().unwrap_err();
    assert_eq!(body.error_code(), Some(ErrorCode::NoSuchTarget));
    let future = WireErrorBody {
        code: "from_the_future".into(),
        message: "m".into(),
        remedy: "r".into(),
    };
    assert_eq!(future.error_code(), None);
}

#[test]
fn handshake_accepts_same_major_and_refuses_another() {
    let hello = Hello {
        protocol: ProtocolVersion {
            major: PROTOCOL.major,
            minor: PROTOCOL.minor + 5,
        },
        client: "t".into(),
        read_only: false,
    };
    let welcome = check_welcome(negotiate(&hello, "0.1.0", 42)).unwrap();
    assert_eq!(welcome.pid, 42);

    let old = Hello {
        protocol: ProtocolVersion {
            major: PROTOCOL.major + 1,
            minor: 0,
        },
        client: "t".into(),
        read_only: false,
    };
    assert!(matches!(
        check_welcome(negotiate(&old, "0.1.0", 42)),
        Err(WireError::Refused(_))
    ));

    let foreign = ServerMessage::Welcome(Welcome {
        protocol: ProtocolVersion { major: 9, minor: 0 },
        server_version: "9".into(),
        pid: 1,
        instance: 1,
        read_only: false,
    });
    let err = check_welcome(foreign).unwrap_err();
    assert!(matches!(err, WireError::VersionMismatch { .. }));
    assert!(err.to_string().contains("9.0"));
}
