//! Where the server's socket lives: `--socket` > `$PHUX_SOCKET` > `$XDG_RUNTIME_DIR/phux/phux.sock`
//! > `/tmp/phux-$UID/phux.sock`. Pure path arithmetic; checking the directory is the server's job.

use std::path::{Path, PathBuf};

pub const SOCKET_FILE: &str = "phux.sock";

/// The socket path for this process, given the `--socket` flag if any.
pub fn resolve(flag: Option<&Path>) -> PathBuf {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    resolve_from(
        flag,
        env("PHUX_SOCKET"),
        env("XDG_RUNTIME_DIR"),
        user_segment(),
    )
}

/// The same rule over explicit inputs, for tests.
pub fn resolve_from(
    flag: Option<&Path>,
    phux_socket: Option<PathBuf>,
    xdg_runtime_dir: Option<PathBuf>,
    user: String,
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
    PathBuf::from(format!("/tmp/phux-{user}")).join(SOCKET_FILE)
}

/// `$UID`, else `$USER`, else `default` (the `/tmp/phux-<segment>` fallback's segment).
fn user_segment() -> String {
    ["UID", "USER"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "default".into())
}

#[cfg(test)]
mod tests {
    use super::*;

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
