//! Issue 50: on a read-only `/wire`, `attach_client{cols:2,rows:1}` and then, from a second
//! read-only connection, `client_resize{client:1,cols:1,rows:1}` took @1 from 80x24 to 1x1 (and
//! from 120x38 to 20x4 with the owner attached). Over the real listener, a read-only client
//! views at its own size and changes no pane's, and `client_resize` is its own client's only.

use phux_tests::listening::Listening;
use phux_tests::{owner_ls, WireClient};

/// The owner attaches over the local socket at `OWNER_COLS`x`OWNER_ROWS` (when set), then two
/// read-only remote connections do what the issue's did; reports each answer.
const SHRINK: &str = r#"
def unix_session(path):
    u = socket.socket(socket.AF_UNIX); u.connect(path); u.settimeout(15)
    u.sendall(frame({"type": "hello", "protocol": {"major": 1, "minor": 0}, "client": "owner"}))
    return u
def unix_messages(u, count):
    out, buf = [], b""
    while len(out) < count:
        while len(buf) < 4 or len(buf) < 4 + struct.unpack(">I", buf[:4])[0]:
            chunk = u.recv(65536)
            if not chunk: return out
            buf += chunk
        n = struct.unpack(">I", buf[:4])[0]
        if buf[4] == 1: out.append(json.loads(buf[5:4 + n]))
        buf = buf[4 + n:]
    return out
result = {}
if os.environ.get("OWNER_COLS"):
    owner = unix_session(os.environ["SOCKET"]); unix_messages(owner, 1)
    owner.sendall(frame({"type": "attach_client", "id": 1, "session": "shown",
                         "cols": int(os.environ["OWNER_COLS"]), "rows": int(os.environ["OWNER_ROWS"])}))
    result["owner"] = unix_messages(owner, 1)[0]
    time.sleep(0.5)
a = session(os.environ["RO"])
send(a, 2, frame({"type": "attach_client", "id": 1, "session": "shown", "cols": 2, "rows": 1}))
result["viewer"] = wire_messages(a, 1)[0]
viewer = result["viewer"].get("ok", {})
b = session(os.environ["RO"])
# Another client's id without its key, and the owner's client.
send(b, 2, frame({"type": "client_resize", "id": 1, "client": viewer.get("client", 1), "cols": 1, "rows": 1}))
result["other_resize"] = wire_messages(b, 1)[0]
owner_client = result.get("owner", {}).get("ok", {}).get("client", 0)
send(b, 2, frame({"type": "client_resize", "id": 2, "client": owner_client, "cols": 1, "rows": 1}))
result["owner_resize"] = wire_messages(b, 1)[0]
# Its own client, with the key its attach answered: its own view, no pane's size.
send(b, 2, frame({"type": "client_resize", "id": 3, "client": viewer.get("client", 0),
                  "key": viewer.get("key", ""), "cols": 1, "rows": 1}))
result["own_resize"] = wire_messages(b, 1)[0]
time.sleep(1.0)
print(json.dumps(result), flush=True)
a.close(); b.close()
"#;

fn pane_size(listening: &Listening, pane: &str) -> (u64, u64) {
    let id = phux_tests::pane_id(pane);
    let panes = WireClient::connect(&listening.server).panes();
    let found = panes
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{pane} is not listed"));
    (u64::from(found.cols), u64::from(found.rows))
}

fn run(owner: Option<(u16, u16)>) {
    let listening = Listening::start();
    let pane = listening.server.new_session("shown", &["sleep", "600"]);
    let before = pane_size(&listening, &pane);
    let ro = listening.pair(&["--read-only"]);
    let socket = listening.server.socket.display().to_string();
    let (cols, rows) = owner.map_or((String::new(), String::new()), |(c, r)| {
        (c.to_string(), r.to_string())
    });
    let name = match owner {
        Some(_) => "read-only resize, owner attached",
        None => "read-only resize, nobody attached",
    };
    let (figures, seen) = owner_ls::during(&listening.server, name, || {
        listening.probe(
            SHRINK,
            &[
                ("RO", ro["token"].as_str().unwrap()),
                ("SOCKET", &socket),
                ("OWNER_COLS", &cols),
                ("OWNER_ROWS", &rows),
            ],
        )
    });
    figures.assert_all_ok();
    let during = pane_size(&listening, &pane);
    // The owner's size less the window's own rows; a read-only client at 2x1 would make it
    // at most that.
    let expected = owner.map_or(before, |(c, r)| {
        assert!(
            during.0 >= u64::from(c) - 1 && during.1 >= u64::from(r) - 2,
            "{during:?}"
        );
        during
    });
    println!("{name}: {pane} was {before:?}, {during:?} after the read-only clients: {seen}");
    assert!(
        seen["viewer"]["ok"]["client"].is_number(),
        "it may watch: {seen}"
    );
    for refused in ["other_resize", "owner_resize"] {
        assert!(
            seen[refused]["error"].is_object(),
            "{refused} was not refused: {seen}"
        );
    }
    assert!(seen["own_resize"]["ok"].is_object(), "its own view: {seen}");
    assert_eq!(during, expected, "a read-only client sized {pane}: {seen}");
    // And it stays so once they are gone.
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(pane_size(&listening, &pane), expected);
}

#[test]
fn a_read_only_remote_client_sizes_no_pane_with_nobody_attached() {
    run(None);
}

#[test]
fn a_read_only_remote_client_sizes_no_pane_with_the_owner_attached() {
    run(Some((120, 38)));
}
