//! Where the server's socket lives: `--socket`, else `$PHUX_SOCKET`, else
//! `$XDG_RUNTIME_DIR/phux/phux.sock`, else the user's runtime directory `/run/user/<uid>` when
//! it exists and is theirs (what `$XDG_RUNTIME_DIR` names in a login session, so a process
//! started without that variable, as agent hosts start `phux mcp`, finds the same server), else
//! `/tmp/phux-<uid>/phux.sock`, with the uid from `getuid()` (bash does not export `$UID`, so the
//! environment would name another user's directory, or a shared `default`). One rule for every
//! process: the server, the verbs and `phux mcp` all call [`resolve`]. Beyond one `stat` of the
//! runtime directory, path arithmetic only; checking the directory is the server's job, and the
//! client's.

use std::path::{Path, PathBuf};

pub const SOCKET_FILE: &str = "phux.sock";

/// The socket path for this process, given the `--socket` flag if any.
pub fn resolve(flag: Option<&Path>) -> PathBuf {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let uid = rustix::process::getuid().as_raw();
    resolve_from(
        flag,
        env("PHUX_SOCKET"),
        env("XDG_RUNTIME_DIR").or_else(|| user_runtime_dir(Path::new(RUN_USER), uid)),
        uid.to_string(),
    )
}

/// Where login sessions keep each user's runtime directory (`/run/user/<uid>`).
pub const RUN_USER: &str = "/run/user";

/// `<root>/<uid>` when it is a directory owned by `uid`: the runtime directory
/// `$XDG_RUNTIME_DIR` names in the user's login sessions, found without the variable.
pub fn user_runtime_dir(root: &Path, uid: u32) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let dir = root.join(uid.to_string());
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    (meta.is_dir() && meta.uid() == uid).then_some(dir)
}

/// Where the keepers of the server at `socket` listen, one socket per pane (see the server's
/// `keeper` module): beside the socket, so a client that finds no server can tell that panes
/// wait to be taken over.
pub fn keepers_dir(socket: &Path) -> PathBuf {
    let mut name = socket.as_os_str().to_os_string();
    name.push(".keepers");
    PathBuf::from(name)
}

/// Whether panes of the server at `socket` are held by keepers with no server: a server that
/// starts there takes them over.
pub fn panes_wait(socket: &Path) -> bool {
    std::fs::read_dir(keepers_dir(socket)).is_ok_and(|mut entries| entries.next().is_some())
}

/// The same rule over explicit inputs, for tests.
pub fn resolve_from(
    flag: Option<&Path>,
    phux_socket: Option<PathBuf>,
    xdg_runtime_dir: Option<PathBuf>,
    uid: String,
) -> PathBuf {
    if let Some(path) = flag {
        return path.to_path_buf();
    }
    if let Some(path) = phux_socket {
        return path;
    }
    if let Some(dir) = xdg_runtime_dir {
        return dir.join("phux").join(SOCKET_FILE);
    }
    PathBuf::from(format!("/tmp/phux-{uid}")).join(SOCKET_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tmp_fallback_uses_getuid_not_the_environment() {
        // bash does not export UID: a fallback read from the environment named another
        // user's directory (or `phux-default`, shared by everyone).
        std::env::remove_var("PHUX_SOCKET");
        std::env::remove_var("XDG_RUNTIME_DIR");
        std::env::set_var("UID", "4242");
        std::env::set_var("USER", "mallory");
        let uid = rustix::process::getuid().as_raw();
        let expected = match user_runtime_dir(Path::new(RUN_USER), uid) {
            Some(dir) => dir.join("phux").join(SOCKET_FILE),
            None => PathBuf::from(format!("/tmp/phux-{uid}/phux.sock")),
        };
        assert_eq!(resolve(None), expected);
    }

    /// A host starts `phux mcp` without `$XDG_RUNTIME_DIR`: it used to talk to
    /// `/tmp/phux-<uid>` while the user's server listened in `/run/user/<uid>`.
    #[test]
    fn the_runtime_dir_is_found_without_the_variable_when_it_is_ours() {
        let root = std::env::temp_dir().join(format!("phux-run-user-{}", std::process::id()));
        let uid = rustix::process::getuid().as_raw();
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(user_runtime_dir(&root, uid), None);
        std::fs::create_dir_all(root.join(uid.to_string())).unwrap();
        assert_eq!(
            user_runtime_dir(&root, uid),
            Some(root.join(uid.to_string()))
        );
        // Someone else's uid: not ours, never used.
        std::fs::create_dir_all(root.join((uid + 1).to_string())).unwrap();
        assert_eq!(user_runtime_dir(&root, uid + 1), None);
        // A file where the directory should be is no runtime directory.
        std::fs::remove_dir(root.join(uid.to_string())).unwrap();
        std::fs::write(root.join(uid.to_string()), b"").unwrap();
        assert_eq!(user_runtime_dir(&root, uid), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn precedence_is_flag_env_runtime_dir_tmp() {
        let flag = Path::new("/f.sock");
        let env = Some(PathBuf::from("/e.sock"));
        let xdg = Some(PathBuf::from("/run/user/7"));
        assert_eq!(
            resolve_from(Some(flag), env.clone(), xdg.clone(), "7".into()),
            flag
        );
        assert_eq!(
            resolve_from(None, env.clone(), xdg.clone(), "7".into()),
            PathBuf::from("/e.sock")
        );
        assert_eq!(
            resolve_from(None, None, xdg, "7".into()),
            PathBuf::from("/run/user/7/phux/phux.sock")
        );
        assert_eq!(
            resolve_from(None, None, None, "7".into()),
            PathBuf::from("/tmp/phux-7/phux.sock")
        );
    }
}
